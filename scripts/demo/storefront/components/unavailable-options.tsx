import { Text } from "@medusajs/ui"
import type { LastmileUnavailableOption } from "../../../../src/storefront"

/** What cannot be offered, grouped by the reason the plugin gives in the shopper's words. */
export function UnavailableOptions({ options }: { options: LastmileUnavailableOption[] }) {
  if (!options.length) {
    return null
  }
  const byReason = new Map<string, string[]>()
  for (const option of options) {
    byReason.set(option.reason, [...(byReason.get(option.reason) ?? []), option.name])
  }
  return (
    <div className="flex flex-col gap-y-2" data-testid="unavailable-options">
      <Text size="small" weight="plus" className="text-ui-fg-subtle">
        Not available for this order
      </Text>
      {[...byReason].map(([reason, names]) => (
        <div key={reason} className="bg-ui-bg-subtle rounded-lg px-3 py-2" data-testid="unavailable-group">
          <Text size="small" weight="plus">
            {names.join(", ")}
          </Text>
          <Text size="small" className="text-ui-fg-subtle" data-testid="unavailable-reason">
            {reason}
          </Text>
        </div>
      ))}
    </div>
  )
}
