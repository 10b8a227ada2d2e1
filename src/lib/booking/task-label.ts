/** How the merchant reads what a task is for, in the order widget and the admin API. */
import type { DeliveryOrigin } from "./delivery-unit"

/** A delivery's origin, or a return. */
export type TaskOrigin = DeliveryOrigin | "return"

const LABELS: Record<TaskOrigin, string> = {
  order: "Delivery",
  exchange: "Replacement (exchange)",
  claim: "Replacement (claim)",
  part: "Further items",
  return: "Return",
}

export const taskLabel = (origin: TaskOrigin): string => LABELS[origin]
