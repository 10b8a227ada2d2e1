import { model } from "@medusajs/framework/utils"

/**
 * One delivery or return booked (or to be booked) with the service. The row
 * exists before the booking is attempted, so a crash mid-booking leaves a
 * trace the retry job reconciles; `merchant_order_id` is unique, as at the
 * service, so one reference can never hold two tasks. An order has one row
 * per delivery (its own, a replacement's, items shipped after an edit) and
 * per return. It also holds what fulfillment data must not (it is public):
 * the shopper's phone and internal ids stay here.
 */
export const LastmileTask = model
  .define("lastmile_task", {
    id: model.id({ prefix: "lmtask" }).primaryKey(),
    kind: model.enum(["delivery", "return"]).default("delivery"),
    order_id: model.text().index(),
    fulfillment_id: model.text().nullable(),
    return_id: model.text().nullable(),
    /**
     * The reference the service knows the task by: the order id for the
     * order's own delivery; the exchange's or claim's id for a replacement;
     * the order id and a digest of the lines for items shipped separately;
     * the return id for a return.
     */
    merchant_order_id: model.text().unique(),
    /** What the task is for: order, exchange, claim, part (items shipped separately) or return. */
    origin: model.enum(["order", "exchange", "claim", "part", "return"]).nullable(),
    /** The order name the service was given (`#1001`, `Replacement for #1001`). */
    name: model.text().nullable(),
    /**
     * pending → booking → booked, or failed (retried by the job), or
     * needs_attention (the merchant decides: rate gone, price rose, refused),
     * or cancelled (the order was cancelled before it was booked: never booked again).
     */
    status: model.enum(["pending", "booking", "booked", "failed", "needs_attention", "cancelled"]).default("pending"),
    task_id: model.text().index().nullable(),
    tracking_id: model.text().index().nullable(),
    tracking_url: model.text().nullable(),
    rate_code: model.text().nullable(),
    delivery_type: model.text().nullable(),
    merchant_location_id: model.text().nullable(),
    /** The service's own status value (NOT_STARTED, …). */
    service_status: model.text().nullable(),
    status_history: model.json().default({ entries: [] }),
    /**
     * How far the parcel has got, as Medusa sees it: only ever moves forward
     * (awaiting → shipped → delivered); cancelled closes tracking.
     */
    tracking_state: model.enum(["awaiting", "shipped", "delivered", "cancelled"]).default("awaiting"),
    /** The latest status value the status table does not know (shown in admin). */
    unmapped_status: model.text().nullable(),
    /** When the service's state was last read (webhook or polling). */
    last_checked_at: model.dateTime().nullable(),
    attempts: model.number().default(0),
    last_error: model.text().nullable(),
    next_attempt_at: model.dateTime().nullable(),
    booked_at: model.dateTime().nullable(),
    adopted: model.boolean().default(false),
    /**
     * Something the merchant must look at although the task is booked, e.g.
     * `{ kind: "order_edited", message, added, removed, at }`; cleared when done.
     */
    notice: model.json().nullable(),
    /**
     * The rate the task was booked at, from the booking's own quote: what the
     * shopper was promised and what insights measure against. Shape:
     * `QuotedRate` (lib/contracts/quoted-rate.ts); null until booked.
     */
    quoted_rate: model.json().nullable(),
    /** How the parcel reaches the shopper: delivery or collection (from the shipping option), or a return. */
    mode: model.enum(["delivery", "collection", "return"]).nullable(),
    /** The shipping option the shopper (or the merchant) chose. */
    shipping_option_id: model.text().nullable(),
    /** The stock location the parcel leaves from: the store, for a collection. */
    stock_location_id: model.text().nullable(),
    /** When the order, exchange, claim or return was placed: the booking's latency is measured from here. */
    placed_at: model.dateTime().nullable(),
    /**
     * How Medusa's side was cancelled while the task was booked:
     * `{ by: "service" | "merchant", at, actor_id?, service_status? }`.
     */
    cancellation: model.json().nullable(),
    /**
     * The messages sent about the task (`NotificationRecord`,
     * lib/notifications/notification-record.ts): each by its key, sent,
     * failed (and when it is retried) or skipped. Written under the task's
     * tracking lock only, so no message is sent twice.
     */
    notifications: model.json().nullable(),
    /** When the notification pass looks at the task again: a failed send's retry, or a collection's reminder. */
    notify_at: model.dateTime().nullable(),
    /**
     * A collection's life at the store (`CollectionRecord`, lib/collection/collection-hold.ts): the code the shopper
     * shows at the counter (never in fulfillment data), when it became ready and until when it is held, each
     * extension, the hand-over, the wrong codes tried. Null for a delivery or a return.
     */
    collection: model.json().nullable(),
  })
  .indexes([
    { on: ["status", "next_attempt_at"] },
    { on: ["status", "tracking_state", "last_checked_at"] },
    { on: ["placed_at"] },
    { on: ["notify_at"] },
  ])
