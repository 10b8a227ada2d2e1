/** The merchant's Retry on one task: its delivery or return is booked again now, even when it waited for them. */
import type { MedusaContainer } from "@medusajs/framework/types"
import { MedusaError } from "@medusajs/framework/utils"
import type { TaskRow } from "../../modules/lastmile/services/task-rows"
import { type TaskBookingOutcome, bookTask } from "./run"
import type { BookingTarget } from "./read-booking"

export async function retryTask(container: MedusaContainer, task: TaskRow): Promise<TaskBookingOutcome> {
  if (task.status === "booked") {
    throw new MedusaError(MedusaError.Types.NOT_ALLOWED, `This is booked already as task ${task.task_id}`)
  }
  if (task.status === "cancelled") {
    throw new MedusaError(MedusaError.Types.NOT_ALLOWED, "The order was cancelled: nothing is booked for it.")
  }
  if (task.kind === "return") {
    if (!task.return_id) {
      throw new MedusaError(MedusaError.Types.NOT_ALLOWED, "This return task names no return")
    }
    return bookTask(container, { kind: "return", return_id: task.return_id }, { retry_needs_attention: true })
  }
  if (task.origin === "part") {
    throw new MedusaError(
      MedusaError.Types.NOT_ALLOWED,
      "These items were fulfilled by hand and the fulfillment was undone: fulfil them again from the order page to book them."
    )
  }
  return bookTask(container, deliveryTarget(task), { retry_needs_attention: true })
}

/** A delivery task's target: its order's own delivery, or an exchange's or a claim's replacement. */
export function deliveryTarget(task: TaskRow): BookingTarget {
  const replacement = task.origin === "exchange" || task.origin === "claim"
  return { kind: "order", order_id: task.order_id, reference_id: replacement ? task.merchant_order_id : undefined }
}
