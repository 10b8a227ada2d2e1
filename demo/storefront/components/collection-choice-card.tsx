import { Badge, Text } from "@medusajs/ui"
import { type LastmileCollectionChoice, storeAddressUnlessIn } from "medusa-plugin-lastmile-storefront"
import { ChoiceCard, type ChoiceHandlers, type ChoiceState } from "./choice-card"
import { PriceBadge } from "./price-badge"
import { shown } from "../lib/shown-text"

/**
 * A store that can offer collection: its name, price, how far it is (when the shopper gave their position), address,
 * when the order is ready there, and the store's own words for collecting there, which are the row's description for
 * a screen reader (its name is `spokenText`, which says the distance).
 */
export function CollectionChoiceCard({
  choice,
  describedBy,
  ...state
}: ChoiceState & { choice: LastmileCollectionChoice; handlers: ChoiceHandlers; describedBy: string }) {
  // The service's readiness text often names the store's address already: it is said once.
  const address = storeAddressUnlessIn(choice.address, choice.description)
  const instructionsId = `instructions-${choice.key}`
  return (
    <ChoiceCard
      choice={choice}
      describedBy={choice.instructions ? `${instructionsId} ${describedBy}` : describedBy}
      {...state}
    >
      {choice.distanceText && (
        <Badge size="2xsmall" className="self-start" data-testid="choice-distance">
          {choice.distanceText} away
        </Badge>
      )}
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
      {choice.instructions && (
        <Text size="small" className="text-ui-fg-subtle" id={instructionsId} data-testid="choice-instructions">
          From the store: {shown(choice.instructions, 500)}
        </Text>
      )}
      <PriceBadge choice={choice} />
    </ChoiceCard>
  )
}
