/**
 * What Medusa knows of a cart, as the service's quote (and booking) request; a required field the cart lacks is a
 * problem the shopper can fix, never invented.
 */
import type { QuoteRequest, ServiceAddress, ServiceLineItem } from "../contracts/service-shapes"
import type { MedusaAddress } from "../contracts/plugin-data"
import { countryName } from "../address/country-names"
import { normalisePhoneNumber } from "../address/phone-number"

/** The address fields Medusa's cart, order and stock-location addresses share (`medusaAddressSchema` reads them). */
export type MedusaAddressLike = MedusaAddress

export interface MedusaLineLike {
  /** The line item's id, where Medusa gives it. */
  id?: string | null
  /** false for a line that ships nothing (a gift card, a download): it is left out of the basket. */
  requires_shipping?: boolean | null
  variant_id?: string | null
  variant_sku?: string | null
  variant?: {
    id?: string | null
    sku?: string | null
    /** Which option's lines the item is: Medusa prices an option with the lines of its shipping profile. */
    product?: { shipping_profile?: { id?: string | null } | null } | null
  } | null
  quantity: number | string | { toString(): string }
}

export type MerchantProductIdSource = "sku" | "variant_id"

export interface QuoteInput {
  /** The cart id while quoting, the order id at booking. */
  merchantOrderId: string
  merchantOrderName: string
  deliveryType: string
  items: MedusaLineLike[]
  /** The shopper's address: delivery address and the customer's name and phone. */
  shippingAddress?: MedusaAddressLike | null
  email?: string | null
  /** Address of the collection point sent with the quote. */
  collectionAddress?: MedusaAddressLike | null
  /** For a store collection: the store's external id. */
  merchantLocationId?: string
  productIdSource?: MerchantProductIdSource
}

/** A problem with the data a quote needs, in words the shopper can act on; `field` says whose it is to fix. */
export type QuoteInputProblem = { field: QuoteInputField; message: string }

export type QuoteInputField =
  "shipping_address" | "shipping_address.name" | "shipping_address.phone" | "email" | "items" | "store_address"

export function toServiceAddress(
  address: MedusaAddressLike | null | undefined,
  label: string,
  problems: QuoteInputProblem[],
  field: QuoteInputField = "shipping_address"
): ServiceAddress | undefined {
  const missing = Object.entries({ street: address?.address_1, city: address?.city, postcode: address?.postal_code })
    .filter(([, value]) => !value?.trim())
    .map(([name]) => name)
  const country = countryName(address?.country_code)
  if (!country) {
    missing.push("country")
  }
  if (missing.length || !address) {
    problems.push({ field, message: `The ${label} needs a ${missing.join(", ")}.` })
    return undefined
  }
  return {
    line1: address.address_1!.trim(),
    ...(address.address_2?.trim() ? { line2: address.address_2.trim() } : {}),
    city: address.city!.trim(),
    postcode: address.postal_code!.trim(),
    country: country as string,
  }
}

/** Items as the basket the service checks stock against; one line per product, quantities summed. */
export function toLineItems(items: MedusaLineLike[], source: MerchantProductIdSource = "sku"): ServiceLineItem[] {
  const quantities = new Map<string, number>()
  for (const item of items) {
    if (item.requires_shipping === false) {
      continue
    }
    // An empty SKU is no SKU.
    const sku = item.variant_sku || item.variant?.sku || undefined
    const variantId = item.variant_id || item.variant?.id || undefined
    const id = source === "sku" ? (sku ?? variantId) : (variantId ?? sku)
    const quantity = Number(item.quantity?.toString())
    if (!id || !Number.isFinite(quantity) || quantity <= 0) {
      continue
    }
    quantities.set(id, (quantities.get(id) ?? 0) + quantity)
  }
  return [...quantities].map(([merchantProductId, quantity]) => ({ merchantProductId, quantity }))
}

export interface ShopperDetails {
  delivery: ServiceAddress
  customer: QuoteRequest["customer"]
  lineItems: ServiceLineItem[]
}

/**
 * What the service needs from the shopper: a complete address, a name, an
 * email and a phone that can be dialled, and something to ship. Each gap is
 * a problem in words the shopper can act on.
 */
export function checkShopperDetails(
  input: Pick<QuoteInput, "shippingAddress" | "email" | "items" | "productIdSource">
): { ok: true; details: ShopperDetails } | { ok: false; problems: QuoteInputProblem[] } {
  const problems: QuoteInputProblem[] = []
  const delivery = toServiceAddress(input.shippingAddress, "shipping address", problems)
  const firstName = input.shippingAddress?.first_name?.trim()
  const lastName = input.shippingAddress?.last_name?.trim()
  if (!firstName || !lastName) {
    problems.push({ field: "shipping_address.name", message: "Enter the recipient's first and last name." })
  }
  const email = input.email?.trim()
  if (!email) {
    problems.push({ field: "email", message: "Enter an email address so the courier can send updates." })
  }
  const phone = normalisePhoneNumber(input.shippingAddress?.phone, input.shippingAddress?.country_code)
  if (!phone.ok) {
    problems.push({
      field: "shipping_address.phone",
      message:
        phone.reason === "missing"
          ? "Enter a phone number so the courier can reach you."
          : "Enter a phone number that can be dialled, with its country code if it is not local.",
    })
  }
  const lineItems = toLineItems(input.items, input.productIdSource)
  if (!lineItems.length) {
    problems.push({ field: "items", message: "The cart has nothing to ship." })
  }
  if (problems.length || !delivery || !phone.ok) {
    return { ok: false, problems }
  }
  return {
    ok: true,
    details: {
      delivery,
      customer: { firstName: firstName!, lastName: lastName!, email: email!, phoneNumber: phone.e164 },
      lineItems,
    },
  }
}

export function buildQuoteRequest(
  input: QuoteInput
): { ok: true; request: QuoteRequest } | { ok: false; problems: QuoteInputProblem[] } {
  const shopper = checkShopperDetails(input)
  const problems = shopper.ok ? [] : [...shopper.problems]
  const collection = toServiceAddress(input.collectionAddress, "store address", problems, "store_address")
  if (!shopper.ok || !collection) {
    return { ok: false, problems }
  }
  return {
    ok: true,
    request: {
      deliveryType: input.deliveryType,
      collection: {
        address: collection,
        ...(input.merchantLocationId ? { merchantLocationId: input.merchantLocationId } : {}),
      },
      delivery: { address: shopper.details.delivery },
      customer: shopper.details.customer,
      order: {
        merchantOrderId: input.merchantOrderId,
        merchantOrderName: input.merchantOrderName,
        lineItems: shopper.details.lineItems,
      },
    },
  }
}
