/**
 * Extends a ready collection's hold at its store (decision 65), under the task's tracking lock: the new collect-by
 * from the store's days, and the shopper told it.
 */
import { acquireLockStep, releaseLockStep } from "@medusajs/medusa/core-flows"
import { WorkflowResponse, createWorkflow, transform } from "@medusajs/framework/workflows-sdk"
import { taskTrackingLockKey } from "../../lib/tracking/task-sync"
import { readStoreDaysStep } from "./steps/read-store-days"
import { extendHoldStep } from "./steps/extend-hold"
import { sendTaskNotificationsStep } from "../notify-task/steps/send-task-notifications"

export interface ExtendCollectionWorkflowInput {
  task_row_id: string
  /** Open days to add. */
  days: number
  actor: { id: string | null; name: string | null }
  now?: string
}

export const extendCollectionWorkflowId = "lastmile-extend-collection"

export const extendCollectionWorkflow = createWorkflow(
  extendCollectionWorkflowId,
  (input: ExtendCollectionWorkflowInput) => {
    const key = transform({ input }, ({ input }) => taskTrackingLockKey(input.task_row_id))
    acquireLockStep({ key, timeout: 10, ttl: 60 })
    const store = readStoreDaysStep({ task_row_id: input.task_row_id })
    const extended = extendHoldStep(
      transform({ input, store }, ({ input, store }) => ({
        task_row_id: input.task_row_id,
        days: input.days,
        store,
        actor: input.actor,
        now: input.now,
      }))
    )
    sendTaskNotificationsStep({ task_row_id: input.task_row_id, lock_held: true, now: input.now })
    releaseLockStep({ key })
    return new WorkflowResponse(extended)
  }
)
