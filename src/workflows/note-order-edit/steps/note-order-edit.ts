/**
 * An order edit confirmed after its delivery was booked (decision 22): the task gets a notice naming the difference
 * (lib/booking/order-edit.ts) until the merchant dismisses it. Its compensation puts the row back.
 */
import { StepResponse, createStep } from "@medusajs/framework/workflows-sdk"
import { type TaskRow, TaskRowsService } from "../../../modules/lastmile/services/task-rows"
import { type NamedLine, editDifference, namedEdit } from "../../../lib/booking/order-edit"
import type { TaskNotice } from "../../../lib/contracts/admin-api"

export interface NoteOrderEditInput {
  order_id: string
  difference: ReturnType<typeof editDifference>
  /** The order's lines the edit changed, as read (their titles name them). */
  lines: { id: string; title?: string | null; variant_title?: string | null }[]
}

export interface EditedAfterBooking {
  order_id: string
  task_row_id: string
  task_id: string | null
  added: NamedLine[]
  removed: NamedLine[]
  message: string
}

export const noteOrderEditStepId = "lastmile-note-order-edit"

export const noteOrderEditStep = createStep(
  noteOrderEditStepId,
  async ({ order_id, difference, lines }: NoteOrderEditInput, { container }) => {
    const tasks = TaskRowsService.of(container)
    const [task] = await tasks.list({
      order_id,
      merchant_order_id: order_id,
      status: "booked",
      tracking_state: ["awaiting", "shipped"],
    })
    if (!task || (!difference.added.length && !difference.removed.length)) {
      return new StepResponse<EditedAfterBooking | null, TaskRow | null>(null, null)
    }
    const { added, removed, message } = namedEdit(difference, lines, task.task_id ?? task.merchant_order_id)
    const notice: TaskNotice = {
      kind: "order_edited",
      message,
      at: new Date().toISOString(),
      added: added.map(({ title, quantity }) => ({ title, quantity })),
      removed: removed.map(({ title, quantity }) => ({ title, quantity })),
    }
    await tasks.update({ id: task.id, notice: { ...notice } })
    const edited: EditedAfterBooking = {
      order_id,
      task_row_id: task.id,
      task_id: task.task_id,
      added,
      removed,
      message,
    }
    return new StepResponse<EditedAfterBooking | null, TaskRow | null>(edited, task)
  },
  async (before, { container }) => {
    if (before) {
      await TaskRowsService.of(container).restore(before)
    }
  }
)
