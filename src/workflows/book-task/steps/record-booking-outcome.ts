/**
 * Records what the booking came to, under the task's lock (decision 39): a booked task on its fulfillment (data and
 * tracking labels) and its row; anything else on the row, settled once (lib/booking/booking-outcome.ts).
 */
import type { IFulfillmentModuleService, Logger, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { StepResponse, createStep } from "@medusajs/framework/workflows-sdk"
import { type TaskRow, TaskRowsService } from "../../../modules/lastmile/services/task-rows"
import {
  type BookingOutcome,
  type ServiceBookingOutcome,
  deliveryNoteRefusedDetail,
  quotedRateOf,
} from "../../../lib/booking/booking-outcome"
import { LASTMILE_DATA_MARKER, PENDING_BOOKING, toFulfillmentData, toLabels } from "../../../lib/contracts/plugin-data"
import type { BookingPlan } from "../../../lib/booking/booking-plan"
import { errorMessage } from "../../../lib/support/error-message"
import { newCollectionRecord, readCollectionRecord } from "../../../lib/collection/collection-hold"
import { PluginSettingsService } from "../../../modules/lastmile/services/plugin-settings"

export type RecordBookingOutcomeInput = Pick<Extract<BookingPlan, { action: "book" }>, "task_row_id" | "read"> & {
  outcome: ServiceBookingOutcome
}

/** The row, and the fulfillment's data, before the booking. */
type Before = { row: TaskRow; fulfillment?: { id: string; data: Record<string, unknown> | null } }

export const recordBookingOutcomeStepId = "lastmile-record-booking-outcome"

export const recordBookingOutcomeStep = createStep(
  recordBookingOutcomeStepId,
  async ({ task_row_id, read, outcome }: RecordBookingOutcomeInput, { container }) => {
    const tasks = TaskRowsService.of(container)
    const logger = container.resolve<Logger>(ContainerRegistrationKeys.LOGGER)
    const row = await tasks.retrieve(task_row_id)
    if (outcome.status !== "booked") {
      // As the row's kind and origin say: items the merchant picked by hand, which the job cannot redo, wait for them.
      const { reason, next } = await tasks.settle(row, outcome)
      const recorded: BookingOutcome = next
        ? { status: "failed", reason, next_attempt_at: next.toISOString() }
        : { status: "needs_attention", reason }
      logger.warn(
        next
          ? `lastmile: booking ${read.subject.merchantOrderId} failed, retrying from ${next.toISOString()}: ${reason}`
          : `lastmile: booking ${read.subject.merchantOrderId} needs attention: ${reason}`
      )
      return new StepResponse<BookingOutcome, Before>(recorded, { row })
    }

    const fulfillments = container.resolve<IFulfillmentModuleService>(Modules.FULFILLMENT)
    const [fulfillment] = await fulfillments.listFulfillments({ id: read.fulfillment_id }, { select: ["id", "data"] })
    const bookedAt = new Date()
    const { task, adopted, rate, deliveryNote } = outcome
    const fields = {
      task_id: String(task.taskId),
      tracking_id: task.trackingId ?? null,
      tracking_url: task.trackingUrl ?? null,
      rate_code: rate?.rateCode ?? row.rate_code,
      service_status: task.status?.value ?? null,
      adopted,
    }
    const data = toFulfillmentData(task, {
      ...read.shown,
      rateName: rate?.name ?? read.shown.rateName,
      window: rate?.window ? { from: rate.window.from, to: rate.window.to } : read.shown.window,
      bookedAt,
    })
    const before: Before = { row, fulfillment: fulfillment && { id: fulfillment.id, data: fulfillment.data ?? null } }
    // No failure loses a booking: the row learns the task (still `booking`), then the fulfillment gets it, then the row
    // is marked booked; a process that stops in between leaves a row the job's pass finishes.
    await tasks.update({ id: row.id, fulfillment_id: read.fulfillment_id, ...fields })
    // Medusa's input type leaves labels out, but the module stores them.
    await fulfillments.updateFulfillment(read.fulfillment_id, { data, labels: toLabels(data) } as never)
    const noteRefused = deliveryNoteRefusedDetail(deliveryNote)
    if (noteRefused) {
      // The merchant sees the note in the order's Lastmile panel; the log names the task, never the note.
      logger.warn(`lastmile: task ${fields.task_id} (${read.subject.merchantOrderId}): ${noteRefused}`)
    }
    // A collection gets its code once, at its first booking (decision 65); an adopted task's row may have one.
    const collection =
      read.context.mode === "collection" && !readCollectionRecord(row.collection)
        ? { collection: newCollectionRecord(PluginSettingsService.of(container).options.collection.holdDays) }
        : {}
    try {
      await tasks.recordBooked(row, read.fulfillment_id, {
        ...fields,
        ...read.context,
        ...collection,
        quoted_rate: quotedRateOf(rate, read.shown, bookedAt, deliveryNote),
        booked_at: bookedAt,
        ...(noteRefused ? { detail: noteRefused } : {}),
      })
    } catch (error) {
      // The fulfillment holds the booking now: never undone for a write the booking job's pass finishes.
      logger.warn(
        `lastmile: task ${fields.task_id} is booked and on its fulfillment, but its row could not be marked booked yet (${errorMessage(error)}); the booking job finishes it`
      )
    }
    const recorded: BookingOutcome = { status: "booked", task_row_id: row.id, task_id: fields.task_id, adopted }
    return new StepResponse<BookingOutcome, Before>(recorded, before)
  },
  async (before, { container }) => {
    if (!before) {
      return
    }
    await TaskRowsService.of(container).restore(before.row)
    if (before.fulfillment) {
      await clearFulfillmentBooking(container, before.fulfillment.id, before.fulfillment.data)
    }
  }
)

/**
 * Takes a booking off a fulfillment: its tracking labels, and its data back to the provider's placeholder. Medusa
 * merges a fulfillment's data on update, so the booking's keys are cleared rather than left out. The provider then lets
 * Medusa cancel the fulfillment, as a rollback does.
 */
export async function clearFulfillmentBooking(
  container: MedusaContainer,
  fulfillmentId: string,
  placeholder: Record<string, unknown> | null = { provider: LASTMILE_DATA_MARKER, status: PENDING_BOOKING }
): Promise<void> {
  const cleared = Object.fromEntries(BOOKING_DATA_KEYS.map((key) => [key, null]))
  await container
    .resolve<IFulfillmentModuleService>(Modules.FULFILLMENT)
    .updateFulfillment(fulfillmentId, { data: { ...cleared, ...placeholder }, labels: [] } as never)
}

/** Every key a booking writes on a fulfillment's data (`toFulfillmentData`). */
const BOOKING_DATA_KEYS = Object.keys(toFulfillmentData({ taskId: 0 }, { kind: "delivery", store: { name: null } }))
