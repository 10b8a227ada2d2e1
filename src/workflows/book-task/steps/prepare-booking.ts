/**
 * Under the task's lock, the plan (lib/booking/booking-plan.ts, decision 39) from what the run read and the task row,
 * found or created here, and what the row is told before anything reaches the service.
 */
import { StepResponse, createStep } from "@medusajs/framework/workflows-sdk"
import type { BookingReads } from "../../../lib/booking/booking-read"
import {
  type Attempt,
  type BookingPlan,
  type RowWrite,
  bookedRowsNeeded,
  planBooking,
  taskToPrepare,
} from "../../../lib/booking/booking-plan"
import { type TaskRow, TaskRowsService } from "../../../modules/lastmile/services/task-rows"
import type { TaskIdentity } from "./identify-task"

export interface PrepareBookingInput {
  reads: BookingReads
  /** With the owner of the task's lock this run holds (handed to the hook of a fulfillment it creates). */
  identity: TaskIdentity
  /** The plugin's own run started this attempt on the row already and hands it over (the hook). */
  attempt?: number
  /** The merchant asked for it: a task waiting for their decision is booked again too. */
  retry_needs_attention?: boolean
}

export const prepareBookingStepId = "lastmile-prepare-booking"

export const prepareBookingStep = createStep(
  prepareBookingStepId,
  async (input: PrepareBookingInput, { container }) => {
    const tasks = TaskRowsService.of(container)
    const prepared = taskToPrepare(input.reads)
    if ("plan" in prepared) {
      if (prepared.close) {
        await tasks.closeUnbooked({ merchant_order_id: prepared.close.merchant_order_id }, prepared.close.detail)
      }
      return new StepResponse<BookingPlan, Attempt | null>(prepared.plan, null)
    }
    const task = await tasks.findOrCreate(prepared.task)
    const booked = bookedRowsNeeded(input.reads, task)
      ? await tasks.list({ order_id: task.order_id, status: "booked" }, { select: ["task_id"] })
      : []
    const { plan, row } = planBooking({
      reads: input.reads,
      task,
      handed: input.attempt,
      retry_needs_attention: input.retry_needs_attention,
      lock_owner: input.identity.lock_owner,
      booked_task_ids: booked.map((t) => t.task_id),
    })
    await writeRow(tasks, task, row)
    const attempt = "task_row_id" in plan ? { task_row_id: plan.task_row_id, attempts: plan.attempts } : null
    return new StepResponse<BookingPlan, Attempt | null>(plan, attempt)
  },
  // The run failed before its outcome was recorded: the attempt is retried after the backoff.
  async (attempt, { container }) => {
    if (attempt) {
      await TaskRowsService.of(container).settleInterruptedAttempt(attempt)
    }
  }
)

/**
 * The row before the service is asked: the attempt starts (so a crash leaves a trace the booking job finishes), a
 * booking a fulfillment holds is recorded, or the task waits for the merchant.
 */
async function writeRow(tasks: TaskRowsService, task: TaskRow, row: RowWrite): Promise<void> {
  switch (row.write) {
    case "start":
      await tasks.startAttempt(task, row.details, row.continuing)
      return
    case "booked_from_fulfillment":
      await tasks.recordBookedFromFulfillment(task, row.fulfillment_id, row.booking)
      return
    case "needs_attention":
      await tasks.recordFailure(task, { attempts: task.attempts, message: row.reason, needsAttention: true })
      return
    case "nothing_to_book":
      await tasks.recordNothingToBook(task)
      return
    case "none":
      return
  }
}
