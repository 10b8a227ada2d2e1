/**
 * The fulfillment options a merchant picks for a shipping option, stored as `shipping_option.data`: what pricing and
 * booking need to know of the option.
 */

/**
 * The provider class's identifier. Medusa registers the provider as
 * `lastmile_<id>`, `<id>` being the one the app's medusa-config.ts gives it;
 * the id itself is read from the fulfillment module (lib/options/medusa/provider-id.ts).
 */
export const LASTMILE_PROVIDER_IDENTIFIER = "lastmile"

/** Whether a fulfillment provider id is this plugin's provider, whatever id the app registered it under. */
export function isLastmileProviderId(providerId: unknown): boolean {
  return typeof providerId === "string" && providerId.startsWith(`${LASTMILE_PROVIDER_IDENTIFIER}_`)
}
export const COLLECTION_RATE_CODE = "SVC_COL"
export const COLLECTION_OPTION_ID = "lastmile-collection"
export const RETURN_OPTION_ID = "lastmile-return"

export type LastmileOptionKind = "delivery" | "collection" | "return"

export interface LastmileFulfillmentOption {
  [key: string]: unknown
  id: string
  name: string
  kind: LastmileOptionKind
  is_return?: boolean
  delivery_type?: string
  rate_code?: string
}

/**
 * What kind of lastmile option an option id names (a shipping option's
 * `data.id`, or a shipping method's `optionId`); null for anything that is
 * not a lastmile option.
 */
export function optionKindOf(optionId: unknown): LastmileOptionKind | null {
  if (typeof optionId !== "string" || !optionId.startsWith("lastmile-")) {
    return null
  }
  if (optionId === COLLECTION_OPTION_ID) {
    return "collection"
  }
  return optionId === RETURN_OPTION_ID ? "return" : "delivery"
}

/** Whether a shipping method's data is a lastmile delivery or collection, booked when the order is placed. */
export function isBookableMethodData(data: unknown): boolean {
  const kind = optionKindOf(data && typeof data === "object" ? (data as { optionId?: unknown }).optionId : undefined)
  return kind === "delivery" || kind === "collection"
}

/** The delivery type an option is quoted for: its own, or (collection) the first configured one's. */
export function quoteDeliveryTypeOf(option: LastmileFulfillmentOption, primaryDeliveryType: string): string {
  return option.kind === "delivery" ? (option.delivery_type ?? primaryDeliveryType) : primaryDeliveryType
}

/** NEXT_DAY → lastmile-next-day. */
export function deliveryOptionId(deliveryType: string): string {
  return `lastmile-${deliveryType.toLowerCase().replace(/_/g, "-")}`
}

function deliveryOptionName(deliveryType: string): string {
  const words = deliveryType.toLowerCase().split("_").join(" ")
  return `Last-mile ${words} delivery`
}

export function buildFulfillmentOptions(deliveryTypes: string[]): LastmileFulfillmentOption[] {
  return [
    ...deliveryTypes.map((deliveryType): LastmileFulfillmentOption => ({
      id: deliveryOptionId(deliveryType),
      name: deliveryOptionName(deliveryType),
      kind: "delivery",
      delivery_type: deliveryType,
    })),
    {
      id: COLLECTION_OPTION_ID,
      name: "Last-mile click & collect",
      kind: "collection",
      rate_code: COLLECTION_RATE_CODE,
    },
    { id: RETURN_OPTION_ID, name: "Last-mile return", kind: "return", is_return: true },
  ]
}
