import { Badge, Text } from "@medusajs/ui"
import type { LastmileDeliveryChoice } from "../../../../src/storefront"
import { ChoiceCard } from "./choice-card"

/** A delivery rate: its price (an estimate during an outage), window, CO₂ saving and the service's text. */
export function DeliveryChoiceCard({
  choice,
  selected,
  pending,
  disabled,
}: {
  choice: LastmileDeliveryChoice
  selected: boolean
  pending: boolean
  disabled: boolean
}) {
  return (
    <ChoiceCard
      value={choice.key}
      title={choice.name}
      price={choice.priceText}
      selected={selected}
      pending={pending}
      disabled={disabled}
      testId="delivery-choice"
    >
      {choice.windowText && (
        <Text size="small" data-testid="choice-window">
          {choice.windowText}
        </Text>
      )}
      {choice.description && (
        <Text size="small" className="text-ui-fg-subtle">
          {choice.description}
        </Text>
      )}
      {(choice.estimate || choice.co2Text) && (
        <div className="flex flex-wrap gap-2">
          {choice.estimate && (
            <Badge color="orange" size="2xsmall" data-testid="estimate-badge">
              Estimated price
            </Badge>
          )}
          {choice.co2Text && (
            <Badge color="green" size="2xsmall" data-testid="co2-badge">
              Saves {choice.co2Text}
            </Badge>
          )}
        </div>
      )}
    </ChoiceCard>
  )
}
