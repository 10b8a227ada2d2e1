import { Badge } from "@medusajs/ui"
import type { LastmileChoice } from "medusa-plugin-lastmile-storefront"

/**
 * Says what a price is when it is not a live quote: the merchant's estimate
 * during an outage, or the price the shopper's choice keeps through one
 * (what the cart is charged, so the summary shows the same).
 */
export function PriceBadge({ choice }: { choice: LastmileChoice }) {
  if (!choice.priceNote) {
    return null
  }
  return (
    <Badge
      color={choice.kept ? "blue" : "orange"}
      size="2xsmall"
      data-testid={choice.kept ? "kept-badge" : "estimate-badge"}
    >
      {choice.priceNote}
    </Badge>
  )
}
