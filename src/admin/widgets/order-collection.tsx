/** A collection's hold at the store in the order widget: ready, collect-by, extensions, hand-over, its actions. */
import { ExclamationCircleSolid } from "@medusajs/icons"
import { Text } from "@medusajs/ui"
import type { TaskCollectionView, TaskView } from "../lib/sdk"
import { shown } from "../lib/shown-text"
import { CancelNotCollected, ExtendCollection, HandOverForm } from "./order-collection-actions"
import { ActorName, Time } from "./order-task-parts"

const VIA_WORDS: Record<NonNullable<TaskCollectionView["handed_over"]>["via"], string> = {
  code: "with the shopper's code",
  override: "without the code",
  medusa: "marked picked up in Medusa",
}

/** Where a collection stands, for the block's `data-state`. */
function stateOf(task: TaskView, collection: TaskCollectionView): string {
  if (collection.handed_over) {
    return "handed_over"
  }
  if (task.cancellation) {
    return "cancelled"
  }
  if (collection.expired) {
    return "expired"
  }
  return collection.ready_at ? "ready" : "waiting"
}

/**
 * The collection block of a task: when it became ready, the collect-by the store keeps it until, each extension, the
 * hand-over, a warning once it has expired, and what the merchant can do now (hand over, extend, cancel).
 */
export function CollectionBlock({
  task,
  collection,
  onTask,
  onChanged,
}: {
  task: TaskView
  collection: TaskCollectionView
  /** A route answered the task anew. */
  onTask: (task: TaskView) => void
  /** Something changed that the answer does not carry: read the order again. */
  onChanged: () => void
}) {
  const headingId = `lastmile-collection-heading-${task.id}`
  const latest = collection.extensions[collection.extensions.length - 1]
  const handed = collection.handed_over
  const open = !handed && !task.cancellation
  return (
    <div
      role="group"
      aria-labelledby={headingId}
      className="bg-ui-bg-subtle flex flex-col gap-y-2 rounded-md p-3"
      data-testid="lastmile-collection"
      data-state={stateOf(task, collection)}
      data-expired={collection.expired ? "true" : "false"}
    >
      <Text size="small" weight="plus" id={headingId}>
        Collection at the store
      </Text>
      <div className="flex flex-col gap-y-1">
        {collection.ready_at ? (
          <Text size="small" data-testid="lastmile-collection-ready">
            Ready since <Time at={collection.ready_at} />
          </Text>
        ) : (
          <Text size="small" className="text-ui-fg-subtle" data-testid="lastmile-collection-ready">
            Not ready for collection yet.
          </Text>
        )}
        {collection.collect_by && (
          <Text size="small" data-testid="lastmile-collect-by">
            <span className="font-medium">Collect by</span> <Time at={collection.collect_by} />
            {!latest && collection.hold_days
              ? ` (held ${collection.hold_days} open ${collection.hold_days === 1 ? "day" : "days"})`
              : ""}
          </Text>
        )}
        {latest && (
          <Text size="small" className="text-ui-fg-subtle" data-testid="lastmile-collection-extended">
            Extended {collection.extensions.length === 1 ? "once" : `${collection.extensions.length} times`}; latest by{" "}
            <ActorName id={latest.actor_id} /> on <Time at={latest.at} />, {latest.days} open{" "}
            {latest.days === 1 ? "day" : "days"} more.
          </Text>
        )}
        {handed && (
          <Text size="small" data-testid="lastmile-collection-handed-over" data-via={handed.via}>
            Handed over <Time at={handed.at} /> {VIA_WORDS[handed.via]}
            {handed.via !== "medusa" && (
              <>
                , by <ActorName id={handed.actor_id} />
              </>
            )}
            {handed.via === "override" && handed.reason ? `: “${shown(handed.reason, 500)}”` : "."}
          </Text>
        )}
      </div>
      {collection.expired && open && (
        <div
          className="border-ui-border-error bg-ui-bg-base flex items-start gap-x-2 rounded-md border p-2"
          data-testid="lastmile-collection-expired"
        >
          <ExclamationCircleSolid className="text-ui-fg-error mt-0.5 shrink-0" aria-hidden="true" />
          <Text size="small">
            <span className="font-medium">Not collected in time.</span> Its collect-by has passed: extend it, or cancel
            it as not collected so the stock comes back.
          </Text>
        </div>
      )}
      {open && collection.can_hand_over && (
        <HandOverForm task={task} lockedUntil={collection.locked_until} onTask={onTask} onChanged={onChanged} />
      )}
      {open && (collection.can_extend || collection.expired) && (
        <div className="flex flex-wrap items-start gap-2">
          {collection.can_extend && <ExtendCollection task={task} collection={collection} onTask={onTask} />}
          {collection.expired && <CancelNotCollected task={task} collection={collection} onChanged={onChanged} />}
        </div>
      )}
    </div>
  )
}
