/**
 * Runs the booking workflow for one task and says what it came to, for the roads that must not fail because of the
 * service (a subscriber, the job, an admin route, the `fulfillmentCreated` hook, which turns a refusal into Medusa's
 * error itself). The outcome is the workflow's, or, when the run failed (another run holds the lock, or Medusa refused
 * the fulfillment), the task row's as the run's compensation left it.
 */
import { randomUUID } from "node:crypto"
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { acquireLockStepId } from "@medusajs/medusa/core-flows"
import { type BookTaskWorkflowInput, type BookTaskWorkflowOutput, bookTaskWorkflow } from "./index"
import { identify } from "./steps/identify-task"
import { taskOutcomeOf } from "./steps/read-task-outcome"
import type { BookingTarget } from "./read-booking"
import { TaskRowsService } from "../../modules/lastmile/services/task-rows"
import type { BookingErrorCode, BookingSkip } from "../../lib/booking/booking-outcome"
import { errorMessage } from "../../lib/support/error-message"

export type TaskBookingOutcome =
  | BookingSkip
  | { status: "booked"; taskId: string; adopted: boolean; taskRowId: string }
  | { status: "refused"; code: BookingErrorCode; reason: string }
  | { status: "failed"; reason: string; nextAttemptAt?: Date }
  /** Another run holds the task's lock (it books), or the attempt is not settled yet. */
  | { status: "busy"; reason?: string }

export async function bookTask(
  container: MedusaContainer,
  target: BookingTarget,
  options: Omit<BookTaskWorkflowInput, "target"> = {}
): Promise<TaskBookingOutcome> {
  const { result, errors } = await bookTaskWorkflow(container).run({
    input: { ...options, target, lock_owner: options.lock_owner ?? `lastmile-run:${randomUUID()}` },
    throwOnError: false,
  })
  const failure = errors?.[0]
  const cause = failure ? errorMessage(failure.error) : ""
  const outcome = !failure
    ? outcomeOf(result)
    : failure.action === acquireLockStepId
      ? ({ status: "busy", reason: "another run holds the task's lock" } as const)
      : await settledAfter(container, target, cause)
  // The booking inside the plugin's own run is told by that run; a settled failure by the step that records it.
  if (options.lock_held) {
    return outcome
  }
  const logger = container.resolve(ContainerRegistrationKeys.LOGGER)
  const named =
    target.kind === "fulfillment"
      ? `fulfillment ${target.fulfillment_id}`
      : target.kind === "return"
        ? `return ${target.return_id}`
        : (target.reference_id ?? target.order_id)
  if (outcome.status === "booked") {
    logger.info(`lastmile: ${named} booked as task ${outcome.taskId}${outcome.adopted ? " (adopted)" : ""}`)
  } else if (outcome.status === "busy" || outcome.status === "refused") {
    logger.warn(`lastmile: booking ${named} ${outcome.status === "busy" ? "skipped" : "refused"}: ${outcome.reason}`)
  } else if (cause) {
    logger.warn(`lastmile: booking ${named} did not complete (${outcome.status}): ${cause}`)
  }
  return outcome
}

/** What a run (or, after a failed one, the task row) says, in the runners' words. */
const outcomeOf = (result: BookTaskWorkflowOutput): TaskBookingOutcome =>
  result.status === "booked"
    ? { status: "booked", taskId: result.task_id, adopted: result.adopted, taskRowId: result.task_row_id }
    : result.status === "failed"
      ? { status: "failed", reason: result.reason, nextAttemptAt: new Date(result.next_attempt_at) }
      : result.status === "booking"
        ? { status: "busy", reason: result.reason }
        : result

/**
 * A run that failed (Medusa refused the fulfillment, or the booking inside it refused): the task row says how its
 * compensation or the booking settled it, and names the cause when its compensation could only say "interrupted".
 */
async function settledAfter(
  container: MedusaContainer,
  target: BookingTarget,
  cause: string
): Promise<TaskBookingOutcome> {
  const tasks = TaskRowsService.of(container)
  const identity = await identify(container, target).catch(() => null)
  const reference = identity?.action === "go" ? identity.reference : null
  const [row] = reference ? await tasks.list({ merchant_order_id: reference }, { select: ["id"] }) : []
  if (!row) {
    return { status: "failed", reason: cause }
  }
  await tasks.noteInterruptionCause(row.id, `The booking attempt did not complete: ${cause}`)
  const settled = taskOutcomeOf(await tasks.retrieve(row.id))
  return settled.status === "booked" ? { status: "already_booked" } : outcomeOf(settled)
}
