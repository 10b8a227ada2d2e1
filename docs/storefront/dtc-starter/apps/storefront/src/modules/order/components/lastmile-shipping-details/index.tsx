import { LASTMILE_DISPLAY } from "@lib/util/lastmile-display"
import { convertToLocale } from "@lib/util/money"
import { HttpTypes } from "@medusajs/types"
import Divider from "@modules/common/components/divider"
import { Heading, Text } from "@modules/common/components/ui"
import LastmileTracking from "@modules/order/components/lastmile-tracking"
import { type LastmileChosenMethod, describeChosenMethod, readOrderTracking } from "medusa-plugin-lastmile-storefront"

/**
 * The starter's delivery frame for a lastmile order, on the confirmation and
 * the account's order page: a collection reads as one ("Collection", the
 * store and its address where the shopper's address would be), a delivery is
 * named by the rate chosen, and the tracking follows below, updating itself.
 */
export default function LastmileShippingDetails({
  order,
  chosen,
}: {
  order: HttpTypes.StoreOrder
  chosen: LastmileChosenMethod
}) {
  // The window and the readiness are the tracking's to say (below): they hold only while the booking does.
  const text = describeChosenMethod(chosen, LASTMILE_DISPLAY)
  const tracking = readOrderTracking(order)
  const address = order.shipping_address
  return (
    <div data-testid="lastmile-shipping-details" data-kind={chosen.kind}>
      <Heading level="h2" className="flex flex-row text-3xl-regular my-6">
        {text.heading}
      </Heading>
      <div className="flex items-start gap-x-8">
        <div className="flex flex-col w-1/3" data-testid="shipping-address-summary">
          <Text className="txt-medium-plus text-ui-fg-base mb-1">{text.addressHeading}</Text>
          {chosen.kind === "collection" ? (
            <>
              <Text className="txt-medium text-ui-fg-subtle">{chosen.store?.name}</Text>
              <Text className="txt-medium text-ui-fg-subtle">{text.storeAddress}</Text>
            </>
          ) : (
            <>
              <Text className="txt-medium text-ui-fg-subtle">
                {address?.first_name} {address?.last_name}
              </Text>
              <Text className="txt-medium text-ui-fg-subtle">
                {address?.address_1} {address?.address_2}
              </Text>
              <Text className="txt-medium text-ui-fg-subtle">
                {address?.postal_code}, {address?.city}
              </Text>
              <Text className="txt-medium text-ui-fg-subtle">{address?.country_code?.toUpperCase()}</Text>
            </>
          )}
        </div>
        <div className="flex flex-col w-1/3" data-testid="shipping-contact-summary">
          <Text className="txt-medium-plus text-ui-fg-base mb-1">Contact</Text>
          <Text className="txt-medium text-ui-fg-subtle">{address?.phone}</Text>
          <Text className="txt-medium text-ui-fg-subtle">{order.email}</Text>
        </div>
        <div className="flex flex-col w-1/3" data-testid="shipping-method-summary">
          <Text className="txt-medium-plus text-ui-fg-base mb-1">Method</Text>
          <Text className="txt-medium text-ui-fg-subtle">
            {text.title} (
            {convertToLocale({
              amount: order.shipping_methods?.[0]?.total ?? 0,
              currency_code: order.currency_code,
            })}
            {text.priceNote ? `, ${text.priceNote}` : ""})
          </Text>
          {chosen.deliveryNote && (
            <Text className="txt-medium text-ui-fg-subtle" data-testid="lastmile-note">
              Note for the courier: “{chosen.deliveryNote}”
            </Text>
          )}
        </div>
      </div>
      {tracking && <LastmileTracking initial={tracking} />}
      <Divider className="mt-8" />
    </div>
  )
}
