/**
 * An order edit confirmed after the order's delivery was booked: the
 * delivery's task gets a notice naming the difference, which the order
 * widget and the admin API show until the merchant dismisses it. Before
 * booking there is nothing to do: the booking reads the edited order.
 */
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { StepResponse, createStep } from "@medusajs/framework/workflows-sdk"
import { type TaskRow, TaskRowsService } from "../../../modules/lastmile/services/task-rows"
import { type EditAction, editDifference, editNoticeMessage } from "../../../lib/booking/order-edit"
import type { TaskNotice } from "../../../lib/contracts/admin-api"

export interface EditedAfterBooking {
  order_id: string
  task_row_id: string
  task_id: string | null
  added: { line_item_id: string; title: string; quantity: number }[]
  removed: { line_item_id: string; title: string; quantity: number }[]
  message: string
}

export const noteOrderEditStepId = "lastmile-note-order-edit"

export const noteOrderEditStep = createStep(
  noteOrderEditStepId,
  async (input: { order_id: string; actions?: EditAction[] | null }, { container }) => {
    const tasks = TaskRowsService.of(container)
    const [task] = await tasks.list({
      order_id: input.order_id,
      merchant_order_id: input.order_id,
      status: "booked",
      tracking_state: ["awaiting", "shipped"],
    })
    const difference = editDifference(input.actions)
    if (!task || (!difference.added.length && !difference.removed.length)) {
      return new StepResponse<EditedAfterBooking | null, TaskRow | null>(null, null)
    }
    const ids = [...difference.added, ...difference.removed].map((l) => l.line_item_id)
    const { data } = await container
      .resolve(ContainerRegistrationKeys.QUERY)
      .graph({ entity: "order_line_item", fields: ["id", "title", "variant_title"], filters: { id: ids } })
    const titles = new Map(
      data.map((line): [string, string] => [
        line.id,
        [line.title, line.variant_title].filter(Boolean).join(" – ") || line.id,
      ])
    )
    const named = (lines: { line_item_id: string; quantity: number }[]) =>
      lines.map((l) => ({ ...l, title: titles.get(l.line_item_id) ?? l.line_item_id }))
    const added = named(difference.added)
    const removed = named(difference.removed)
    const message = editNoticeMessage(task.task_id ?? task.merchant_order_id, added, removed)
    const notice: TaskNotice = {
      kind: "order_edited",
      message,
      at: new Date().toISOString(),
      added: added.map(({ title, quantity }) => ({ title, quantity })),
      removed: removed.map(({ title, quantity }) => ({ title, quantity })),
    }
    await tasks.update({ id: task.id, notice: { ...notice } })
    const edited: EditedAfterBooking = {
      order_id: input.order_id,
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
