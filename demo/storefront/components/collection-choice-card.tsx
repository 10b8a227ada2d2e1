import { Text } from "@medusajs/ui"
import { type LastmileCollectionChoice, storeAddressUnlessIn } from "medusa-plugin-lastmile-storefront"
import { ChoiceCard, type ChoiceHandlers, type ChoiceState } from "./choice-card"
import { PriceBadge } from "./price-badge"
import { shown } from "../lib/shown-text"

/** A store that can offer collection: its name, price, address and when the order is ready there. */
export function CollectionChoiceCard({
  choice,
  ...state
}: ChoiceState & { choice: LastmileCollectionChoice; handlers: ChoiceHandlers; describedBy: string }) {
  // The service's readiness text often names the store's address already: it is said once.
  const address = storeAddressUnlessIn(choice.address, choice.description)
  return (
    <ChoiceCard choice={choice} {...state}>
      {address && (
        <Text size="small" className="text-ui-fg-subtle">
          {shown(address)}
        </Text>
      )}
      {choice.description && (
        <Text size="small" data-testid="choice-readiness">
          {shown(choice.description, 300)}
        </Text>
      )}
      <PriceBadge choice={choice} />
    </ChoiceCard>
  )
}
