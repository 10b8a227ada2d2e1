/**
 * What the service shows of a task in its answers and webhooks: less than the simulator keeps, and for a return what
 * its profile says (the spec does not show it).
 */
import type { SimTask, SimulatorConfig } from "./types"

/** The `taskType` a task shows; undefined leaves the field out. */
export function shownTaskType(task: SimTask, config: SimulatorConfig): string | undefined {
  if (task.taskType === "DELIVERY") {
    return "DELIVERY"
  }
  return config.returnTaskType ?? undefined
}

/** The spec's fields of a task (and the merchant's order reference). */
export function publicTask(task: SimTask, config: SimulatorConfig): Record<string, unknown> {
  const shown: Record<string, unknown> = {
    taskId: task.taskId,
    createdAt: task.createdAt,
    taskType: shownTaskType(task, config),
    status: task.status,
    deliveryType: task.deliveryType,
    trackingId: task.trackingId,
    trackingUrl: config.trackingUrl ?? task.trackingUrl,
    rateCode: task.rateCode,
    merchantOrderId: task.merchantOrderId,
    ...(task.window ? { window: task.window } : {}),
  }
  // Left out, not sent as undefined: in-process callers see what JSON would carry.
  if (shown.taskType === undefined) {
    delete shown.taskType
  }
  return shown
}
