import { Button, Text } from "@medusajs/ui"
import type { LastmileShopperAction, LastmileUnavailableSummary } from "medusa-plugin-lastmile-storefront"

/**
 * What cannot be offered, each reason once (the entry's `step.reasons`):
 * the options it affects, the reason in the shopper's words, and a button
 * for what the shopper can do about it, unless the step's notice above
 * already offers the same, or choosing among what is offered is all.
 */
export function UnavailableOptions({
  reasons,
  onAction,
}: {
  reasons: LastmileUnavailableSummary
  onAction: (action: LastmileShopperAction) => void
}) {
  const { verdict, groups } = reasons
  if (!groups.length) {
    return null
  }
  const actionable = (action: LastmileShopperAction) => action !== "choose_another" && action !== verdict?.action
  return (
    <div className="flex flex-col gap-y-2" data-testid="unavailable-options">
      <Text size="small" weight="plus" className="text-ui-fg-subtle">
        {verdict?.kind === "some_unavailable" ? verdict.text : "Not available for this order"}
      </Text>
      {groups.map((group) => (
        <div
          key={group.reason}
          className="bg-ui-bg-subtle flex items-start justify-between gap-x-3 rounded-lg px-3 py-2"
          data-testid="unavailable-group"
          data-action={group.action}
        >
          <div className="flex flex-col">
            <Text size="small" weight="plus">
              {group.names.join(", ")}
            </Text>
            <Text size="small" className="text-ui-fg-subtle" data-testid="unavailable-reason">
              {group.reason}
            </Text>
          </div>
          {actionable(group.action) && (
            <Button
              size="small"
              variant="secondary"
              onClick={() => onAction(group.action)}
              data-testid="unavailable-action"
            >
              {group.actionText}
            </Button>
          )}
        </div>
      ))}
    </div>
  )
}
