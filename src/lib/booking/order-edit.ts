/**
 * What an order edit changed in a booked delivery's items, from the edit's actions, in words the merchant acts on
 * (decision 22).
 */
export interface EditAction {
  action?: string
  details?: { reference_id?: unknown; quantity?: unknown; quantity_diff?: unknown } | null
}

type EditedLine = { line_item_id: string; quantity: number }

/** A line as the edit's notice names it. */
export type NamedLine = EditedLine & { title: string }

export function editDifference(actions: EditAction[] | null | undefined): {
  added: EditedLine[]
  removed: EditedLine[]
} {
  const added: EditedLine[] = []
  const removed: EditedLine[] = []
  for (const action of actions ?? []) {
    const id = action.details?.reference_id
    if (typeof id !== "string") {
      continue
    }
    const quantity = Number(action.details?.quantity)
    const diff = Number(action.details?.quantity_diff)
    if (action.action === "ITEM_ADD" && quantity > 0) {
      added.push({ line_item_id: id, quantity })
    } else if (action.action === "ITEM_UPDATE" && Number.isFinite(diff) && diff !== 0) {
      ;(diff > 0 ? added : removed).push({ line_item_id: id, quantity: Math.abs(diff) })
    } else if (action.action === "ITEM_REMOVE" && quantity > 0) {
      removed.push({ line_item_id: id, quantity })
    }
  }
  return { added, removed }
}

export function editNoticeMessage(
  taskId: string,
  added: { title: string; quantity: number }[],
  removed: { title: string; quantity: number }[]
): string {
  const list = (lines: { title: string; quantity: number }[]) =>
    lines.map((l) => `${l.quantity} × ${l.title}`).join(", ")
  const parts = [
    `The order was edited after its delivery was booked (task ${taskId}); the courier carries the basket that was booked.`,
    added.length
      ? `Added: ${list(added)}: fulfil them to book them as their own lastmile delivery, or add them to task ${taskId} in the service's app.`
      : "",
    removed.length ? `Removed: ${list(removed)}: change task ${taskId} in the service's app.` : "",
  ]
  return parts.filter(Boolean).join(" ")
}

/** The lines an edit changed, named by their titles (the order's line items as read), in the notice's words. */
export function namedEdit(
  difference: { added: EditedLine[]; removed: EditedLine[] },
  lines: { id: string; title?: string | null; variant_title?: string | null }[],
  taskReference: string
): { added: NamedLine[]; removed: NamedLine[]; message: string } {
  const titles = new Map(lines.map((line) => [line.id, [line.title, line.variant_title].filter(Boolean).join(" – ")]))
  const named = (edited: EditedLine[]) =>
    edited.map((l) => ({ ...l, title: titles.get(l.line_item_id) || l.line_item_id }))
  const added = named(difference.added)
  const removed = named(difference.removed)
  return { added, removed, message: editNoticeMessage(taskReference, added, removed) }
}
