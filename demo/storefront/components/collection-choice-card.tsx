import { Text } from "@medusajs/ui"
import { type LastmileCollectionChoice, storeAddressUnlessIn } from "medusa-plugin-lastmile-storefront"
import { ChoiceCard, type ChoiceState } from "./choice-card"
import { PriceBadge } from "./price-badge"

/** A store that can offer collection: its name, price, address and when the order is ready there. */
export function CollectionChoiceCard({ choice, ...state }: ChoiceState & { choice: LastmileCollectionChoice }) {
  // The service's readiness text often names the store's address already: it is said once.
  const address = storeAddressUnlessIn(choice.address, choice.description)
  return (
    <ChoiceCard choice={choice} {...state}>
      {address && (
        <Text size="small" className="text-ui-fg-subtle">
          {address}
        </Text>
      )}
      {choice.description && (
        <Text size="small" data-testid="choice-readiness">
          {choice.description}
        </Text>
      )}
      <PriceBadge choice={choice} />
    </ChoiceCard>
  )
}
