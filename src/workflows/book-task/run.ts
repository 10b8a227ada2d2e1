/**
 * Runs the booking workflow for one task and says what it came to, for the
 * roads that must not fail because of the service (a subscriber, the job, an
 * admin route, the `fulfillmentCreated` hook, which turns a refusal into
 * Medusa's error itself). The outcome is the workflow's, or, when the run
 * failed (another run holds the lock, or Medusa refused the fulfillment), the
 * task row's as the run's compensation left it.
 */
import { randomUUID } from "node:crypto"
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { acquireLockStepId } from "@medusajs/medusa/core-flows"
import { type BookTaskWorkflowInput, type BookTaskWorkflowOutput, bookTaskWorkflow } from "./index"
import { taskOutcomeOf } from "./steps/read-task-outcome"
import { LASTMILE_MODULE } from "../../modules/lastmile"
import { ATTEMPT_INTERRUPTED, type LastmileModuleService } from "../../modules/lastmile/service"
import type { BookingErrorCode, BookingSkip } from "../../lib/booking/booking-outcome"
import { errorMessage } from "../../lib/support/error-message"
import type { BookingTarget } from "./read-booking"

export type TaskBookingOutcome =
  | BookingSkip
  | { status: "booked"; taskId: string; adopted: boolean }
  | { status: "refused"; code: BookingErrorCode; reason: string }
  | { status: "failed"; reason: string; nextAttemptAt?: Date }
  /** Another run holds the task's lock (it books), or the attempt is not settled yet. */
  | { status: "busy"; reason?: string }

export type BookTaskOptions = Omit<BookTaskWorkflowInput, "target">

export async function bookTask(
  container: MedusaContainer,
  target: BookingTarget,
  options: BookTaskOptions = {}
): Promise<TaskBookingOutcome> {
  const logger = container.resolve(ContainerRegistrationKeys.LOGGER)
  const named = nameOf(target)
  const { result, errors } = await bookTaskWorkflow(container).run({
    input: { ...options, target, lock_owner: options.lock_owner ?? `lastmile-run:${randomUUID()}` },
    throwOnError: false,
  })
  const failure = errors?.[0]
  const outcome = failure
    ? failure.action === acquireLockStepId
      ? ({ status: "busy", reason: "another run holds the task's lock" } as const)
      : await settledAfter(container, target, failure.error)
    : fromResult(result)
  switch (outcome.status) {
    case "booked":
      logger.info(`lastmile: ${named} booked as task ${outcome.taskId}${outcome.adopted ? " (adopted)" : ""}`)
      break
    case "failed":
      logger.warn(
        `lastmile: booking ${named} failed, retrying from ${outcome.nextAttemptAt?.toISOString()}: ${outcome.reason}`
      )
      break
    case "needs_attention":
    case "refused":
      logger.warn(`lastmile: booking ${named} needs attention: ${outcome.reason}`)
      break
    case "busy":
      logger.warn(`lastmile: booking ${named} skipped: ${outcome.reason ?? "another run books it"}`)
      break
  }
  return outcome
}

function nameOf(target: BookingTarget): string {
  switch (target.kind) {
    case "order":
      return target.reference_id ?? target.order_id
    case "return":
      return `return ${target.return_id}`
    case "fulfillment":
      return `fulfillment ${target.fulfillment_id}`
  }
}

function fromResult(result: BookTaskWorkflowOutput): TaskBookingOutcome {
  switch (result.status) {
    case "booked":
      return { status: "booked", taskId: result.task_id, adopted: result.adopted }
    case "failed":
      return { status: "failed", reason: result.reason, nextAttemptAt: new Date(result.next_attempt_at) }
    case "booking":
      return { status: "busy", reason: result.reason }
    default:
      return result
  }
}

/**
 * A run that failed (Medusa refused the fulfillment, or the booking inside it
 * refused): the task row says how its compensation or the booking settled
 * it. When the cause was Medusa's rather than the service's, the row says
 * that cause instead of "did not complete".
 */
async function settledAfter(
  container: MedusaContainer,
  target: BookingTarget,
  error: unknown
): Promise<TaskBookingOutcome> {
  const reason = errorMessage(error)
  const reference =
    target.kind === "order"
      ? (target.reference_id ?? target.order_id)
      : target.kind === "return"
        ? target.return_id
        : null
  const tasks = container.resolve<LastmileModuleService>(LASTMILE_MODULE)
  const [task] = reference ? await tasks.listLastmileTasks({ merchant_order_id: reference }) : []
  if (!task) {
    return { status: "failed", reason }
  }
  if (task.status === "booked") {
    return { status: "already_booked" }
  }
  if ((task.status === "failed" || task.status === "needs_attention") && task.last_error === ATTEMPT_INTERRUPTED) {
    const message = `Lastmile booking failed: ${reason}`
    await tasks.updateLastmileTasks({ id: task.id, last_error: message })
    task.last_error = message
  }
  const settled = taskOutcomeOf(task)
  switch (settled.status) {
    case "failed":
      return { status: "failed", reason: settled.reason, nextAttemptAt: new Date(settled.next_attempt_at) }
    case "booking":
      return { status: "busy", reason: settled.reason }
    case "booked":
      return { status: "already_booked" }
    default:
      return settled
  }
}
