/**
 * Records why a booking attempt failed, from the error's booking code: the
 * merchant decides (`needs_attention`), or the retry job tries again after
 * the backoff (`failed`). Only an attempt that is still unsettled is
 * touched; its compensation puts the row back.
 */
import { StepResponse, createStep } from "@medusajs/framework/workflows-sdk"
import { LASTMILE_MODULE } from "../../../modules/lastmile"
import type { LastmileModuleService } from "../../../modules/lastmile/service"
import type { LastmileTaskRow } from "../../../modules/lastmile/types"
import { needsMerchant } from "../../../lib/booking/booking-codes"

export interface RecordBookingFailureInput {
  /** The order id for a delivery, the return id for a return. */
  merchant_order_id: string
  /** The failed workflow's error: its MedusaError code decides, its message is kept for the merchant. */
  error: { code?: string | null; message: string }
  /**
   * False when nothing can retry it (items the merchant picked, whose
   * fulfillment the job cannot make again): then it waits for the merchant.
   */
  retryable?: boolean
}

export type RecordedFailure =
  | { status: "needs_attention"; reason: string }
  /** The next retry as an ISO timestamp (workflow results travel as JSON). */
  | { status: "failed"; reason: string; nextAttemptAt: string }
  /** The attempt was settled meanwhile (booked, or recorded by another run). */
  | { status: "unchanged" }

export const recordBookingFailureStepId = "lastmile-record-booking-failure"

export const recordBookingFailureStep = createStep(
  recordBookingFailureStepId,
  async (input: RecordBookingFailureInput, { container }) => {
    const tasks = container.resolve<LastmileModuleService>(LASTMILE_MODULE)
    const [task] = await tasks.listLastmileTasks({ merchant_order_id: input.merchant_order_id })
    // Only an attempt still under way: a settled one (booked, failed, needs attention) is another run's outcome.
    if (!task || task.status !== "booking") {
      return new StepResponse<RecordedFailure, LastmileTaskRow | null>({ status: "unchanged" }, null)
    }
    const needsAttention = needsMerchant(input.error.code) || input.retryable === false
    const nextAttemptAt = await tasks.recordFailure(task, {
      attempts: task.attempts,
      message: input.error.message,
      needsAttention,
    })
    const recorded: RecordedFailure = nextAttemptAt
      ? { status: "failed", reason: input.error.message, nextAttemptAt: nextAttemptAt.toISOString() }
      : { status: "needs_attention", reason: input.error.message }
    return new StepResponse<RecordedFailure, LastmileTaskRow | null>(recorded, task)
  },
  async (before, { container }) => {
    if (before) {
      await container.resolve<LastmileModuleService>(LASTMILE_MODULE).restoreTaskRow(before)
    }
  }
)
