import { model } from "@medusajs/framework/utils"

/**
 * One authenticated webhook the service sent: kept for audit and to
 * de-duplicate processing. The body is only a doorbell; the subscriber re-reads
 * the task's state from the service and records what it did in `outcome`.
 */
export const LastmileWebhookEvent = model
  .define("lastmile_webhook_event", {
    id: model.id({ prefix: "lmwe" }).primaryKey(),
    /** The service's event id when the body carries one, else a hash of the body. */
    event_key: model.text().index(),
    /**
     * The event key while this row is the first with a service event id, else
     * null: unique, so concurrent deliveries of one event cannot both count as first.
     */
    first_of_event: model.text().unique().nullable(),
    /** The task row the body points at; null when it names no task we know. */
    lastmile_task_id: model.text().index().nullable(),
    /** What the body named the task by, e.g. `taskId=1001`. */
    task_reference: model.text().nullable(),
    /**
     * received → processed (state re-read and applied), or ignored (no task of
     * ours), duplicate (the same event id again) or failed (kept for the
     * polling job, which converges anyway), or refused (authenticated, but its
     * body could not be stored as sent: kept redacted so the merchant sees it).
     */
    status: model.enum(["received", "processed", "ignored", "duplicate", "failed", "refused"]).default("received"),
    outcome: model.text().nullable(),
    payload: model.json(),
    processed_at: model.dateTime().nullable(),
  })
  .indexes([{ on: ["lastmile_task_id", "status"] }])
