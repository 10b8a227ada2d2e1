/**
 * Under the delivery's lock: the task row of the delivery is found or
 * written (status `booking`) before the service is called, so a crash leaves
 * a trace the retry job finishes. A delivery booked already is not booked
 * again; a cancelled order's never. If the attempt fails, the compensation
 * notes it as interrupted and the runner records why.
 */
import { MedusaError } from "@medusajs/framework/utils"
import { StepResponse, createStep } from "@medusajs/framework/workflows-sdk"
import { LASTMILE_MODULE } from "../../../modules/lastmile"
import type { AttemptDetails, LastmileModuleService } from "../../../modules/lastmile/service"
import { AlreadyBookedError } from "../../../lib/booking/booking-failure"
import { BOOKING_ERROR_CODES } from "../../../lib/booking/booking-codes"
import type { DeliveryPlan } from "../identify-delivery"

export interface PreparedAttempt {
  task_row_id: string
  attempts: number
  /** An earlier attempt may have reached the service: the booking looks it up first. */
  lookup_first: boolean
  /** The row records this fulfillment's booking already (a repeated run): nothing to do. */
  recorded: boolean
}

type Attempt = { task_row_id: string | null; attempts: number }

export const prepareDeliveryBookingStepId = "lastmile-prepare-delivery-booking"

export const prepareDeliveryBookingStep = createStep(
  prepareDeliveryBookingStepId,
  async (
    { plan, first_attempt, attempt: started }: { plan: DeliveryPlan; first_attempt?: boolean; attempt?: number },
    { container }
  ) => {
    const tasks = container.resolve<LastmileModuleService>(LASTMILE_MODULE)
    // What the fulfillment books, as the admin shows it while the attempt runs.
    const details: AttemptDetails = {
      name: plan.unit.merchantOrderName,
      rate_code: plan.subject.wish?.rateCode ?? null,
      delivery_type: plan.subject.deliveryType,
      merchant_location_id: plan.subject.merchantLocationId ?? null,
    }
    const task = await tasks.findOrCreateTask({
      kind: "delivery",
      origin: plan.unit.origin,
      order_id: plan.order_id,
      merchant_order_id: plan.unit.merchantOrderId,
      ...details,
    })
    if (task.status === "booked") {
      if (task.fulfillment_id === plan.fulfillment_id) {
        return new StepResponse<PreparedAttempt, Attempt>(
          { task_row_id: task.id, attempts: task.attempts, lookup_first: false, recorded: true },
          { task_row_id: null, attempts: 0 }
        )
      }
      throw new AlreadyBookedError(plan.unit.merchantOrderName, task.task_id ?? "", task.tracking_id)
    }
    if (task.status === "cancelled") {
      throw new MedusaError(
        MedusaError.Types.NOT_ALLOWED,
        `${plan.unit.merchantOrderName} was cancelled: it is never booked again.`,
        BOOKING_ERROR_CODES.needsAttention
      )
    }
    // The plugin's own run started this attempt on the row already (under the same lock).
    const ours = started !== undefined && task.status === "booking" && task.attempts === started
    // A row the plugin's own run created (before the fulfillment existed) learns the details here.
    const attempts = await tasks.startAttempt(task, details, ours ? started : undefined)
    return new StepResponse<PreparedAttempt, Attempt>(
      { task_row_id: task.id, attempts, lookup_first: !(first_attempt && attempts === 1), recorded: false },
      { task_row_id: task.id, attempts }
    )
  },
  // An attempt that did not complete: retried after the backoff, unless the runner records why it needs the merchant.
  async (attempt, { container }) =>
    container.resolve<LastmileModuleService>(LASTMILE_MODULE).recordAttemptInterrupted(attempt)
)
