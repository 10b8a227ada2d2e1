import { Badge, Text } from "@medusajs/ui"
import type { LastmileDeliveryChoice } from "medusa-plugin-lastmile-storefront"
import { ChoiceCard, type ChoiceHandlers, type ChoiceState } from "./choice-card"
import { PriceBadge } from "./price-badge"

/**
 * A delivery rate: its price (an estimate during an outage, or the price a
 * choice keeps through one), window, CO₂ saving and the service's text.
 */
export function DeliveryChoiceCard({
  choice,
  ...state
}: ChoiceState & { choice: LastmileDeliveryChoice; handlers: ChoiceHandlers; describedBy: string }) {
  return (
    <ChoiceCard choice={choice} {...state}>
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
      {(choice.priceNote || choice.co2Text) && (
        <div className="flex flex-wrap gap-2">
          <PriceBadge choice={choice} />
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
