import { Text } from "@medusajs/ui"
import type { LastmileCollectionChoice } from "../../../../src/storefront"
import { ChoiceCard } from "./choice-card"

/** A store that can offer collection: its name, price, address and when the order is ready there. */
export function CollectionChoiceCard({
  choice,
  selected,
  pending,
  disabled,
}: {
  choice: LastmileCollectionChoice
  selected: boolean
  pending: boolean
  disabled: boolean
}) {
  const street = choice.address?.address_1
  // The service's readiness text often names the store's address already.
  const address =
    street && !choice.description?.includes(street)
      ? [street, choice.address?.postal_code].filter(Boolean).join(", ")
      : null
  return (
    <ChoiceCard
      value={choice.key}
      title={choice.storeName}
      price={choice.amount === 0 ? "Free" : choice.priceText}
      selected={selected}
      pending={pending}
      disabled={disabled}
      testId="collection-choice"
    >
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
    </ChoiceCard>
  )
}
