import { LASTMILE_DISPLAY } from "@lib/util/lastmile-display"
import { HttpTypes } from "@medusajs/types"
import { Text } from "@modules/common/components/ui"
import { describeChosenMethod, readChosenMethod } from "medusa-plugin-lastmile-storefront"

/**
 * The cart's lastmile choice as the shopper chose it, for the Delivery
 * step's summary and the Review step: "Delivery", the rate's own name and its
 * price and window (or the option's name and "Estimated price", when it was
 * chosen at the shop's estimate) and the shopper's note to the courier; or "Collection", the store and its address. Nothing when
 * the cart's method is not lastmile's (the starter's own summary shows it).
 * It only reads the cart, so it renders on the server or in the browser.
 */
export default function LastmileSummary({ cart }: { cart: HttpTypes.StoreCart }) {
  const chosen = readChosenMethod(cart)
  if (!chosen) {
    return null
  }
  const text = describeChosenMethod(chosen, { ...LASTMILE_DISPLAY, currencyCode: cart.currency_code })
  return (
    <div className="flex flex-col" data-testid="lastmile-summary" data-kind={chosen.kind}>
      <Text className="txt-medium-plus text-ui-fg-base mb-1">{text.heading}</Text>
      <Text className="txt-medium text-ui-fg-subtle" data-testid="lastmile-summary-title">
        {text.title} {text.priceText}
        {text.priceNote && <span data-testid="lastmile-summary-estimate"> ({text.priceNote})</span>}
      </Text>
      {[text.windowText, text.storeAddress].map((line) =>
        line ? (
          <Text key={line} className="txt-medium text-ui-fg-subtle">
            {line}
          </Text>
        ) : null
      )}
      {chosen.deliveryNote && (
        <Text className="txt-medium text-ui-fg-subtle" data-testid="lastmile-summary-note">
          Note for the courier: “{chosen.deliveryNote}”
        </Text>
      )}
    </div>
  )
}
