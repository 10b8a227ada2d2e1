/** A booked delivery's task row as the tracking sync reads it, for unit tests. */
import type { TrackedTask } from "../../src/lib/tracking/task-sync"

export const trackedTask = (overrides: Partial<TrackedTask> = {}): TrackedTask => ({
  id: "lmtask_1",
  kind: "delivery",
  status: "booked",
  order_id: "order_1",
  return_id: null,
  fulfillment_id: "ful_1",
  merchant_order_id: "order_1",
  task_id: "1001",
  tracking_id: "LM1",
  service_status: "NOT_STARTED",
  tracking_state: "awaiting",
  unmapped_status: null,
  ...overrides,
})
