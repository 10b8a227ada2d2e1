/**
 * What the shopper chose, read from a cart's or order's lastmile shipping method, and the words a summary frames it
 * with: a delivery by its rate ("Next day eco"), a collection by its store and the store's address.
 */
import type { LastmileShippingMethodData, LastmileWindow } from "./contract.js"
import { type LastmileFormatOptions, formatAmount, formatWindow } from "./format.js"
import { formatStoreAddress, readStoreAddress } from "./store-address.js"
import type { LastmileStoreAddress } from "./types.js"

/** The fields of a cart's or an order's shipping method this reads. Medusa's `StoreCartShippingMethod` is one. */
export interface LastmileShippingMethodLike {
  shipping_option_id?: string | null
  name?: string | null
  amount?: number | null
  data?: Record<string, unknown> | null
}

export interface LastmileChosenMethod {
  kind: "delivery" | "collection"
  /** What the shopper chose, named as they chose it: the rate's name, or the store's; else the option's name. */
  name: string | null
  /** The shipping option's name, e.g. "Next day delivery" or "Collect from Camden". */
  optionName: string | null
  /** The chosen rate's name, when the service named it. */
  rateName: string | null
  shippingOptionId: string | null
  /** The method's amount, in major units (as the store API gives it). */
  amount: number | null
  /** The window offered when it was chosen. */
  window: LastmileWindow | null
  /** The rate's text when it was chosen: for a collection, the store's readiness. */
  description: string | null
  /**
   * A collection's store (older data: the option's name, and no address), with its own words for collecting there
   * as they were when the shopper chose it (null without any).
   */
  store: { name: string | null; address: LastmileStoreAddress | null; instructions: string | null } | null
  /** Chosen at the merchant's outage price, without a live quote. */
  fallback: boolean
  /** The shopper's note to the courier (a delivery's), as kept; null without one. */
  deliveryNote: string | null
}

/**
 * The lastmile method of a cart or an order (its latest), or null when none
 * of its methods is lastmile's. Read the cart with
 * `fields=+shipping_methods.data,+shipping_methods.name`.
 */
export function readChosenMethod(holder: {
  shipping_methods?: readonly LastmileShippingMethodLike[] | null
}): LastmileChosenMethod | null {
  const method = [...(holder.shipping_methods ?? [])].reverse().find((m) => lastmileKindOf(m.data) !== null)
  if (!method) {
    return null
  }
  // Read field by field: data written by older versions (or by hand) may lack any of them.
  const data: { [K in keyof LastmileShippingMethodData]?: unknown } = method.data ?? {}
  const kind = lastmileKindOf(method.data) ?? "delivery"
  const optionName = text(method.name)
  const rateName = text(data.rateName)
  const storeData = data.store && typeof data.store === "object" ? (data.store as Record<string, unknown>) : null
  const store =
    kind === "collection"
      ? {
          name: text(storeData?.name) ?? optionName,
          address: readStoreAddress(storeData?.address),
          instructions: text(storeData?.instructions),
        }
      : null
  return {
    kind,
    name: store ? store.name : (rateName ?? optionName),
    optionName,
    rateName,
    shippingOptionId: text(method.shipping_option_id),
    amount: typeof method.amount === "number" ? method.amount : null,
    window: windowOf(data.window),
    description: text(data.description),
    store,
    fallback: data.fallback === true,
    deliveryNote: kind === "delivery" ? text(data.deliveryNote) : null,
  }
}

/** Beside a price that is the merchant's estimate, not a live quote's. */
export const ESTIMATE_NOTE = "Estimated price"

export interface LastmileChosenMethodText {
  /** The frame's heading: "Delivery" or "Collection". */
  heading: string
  /** What was chosen: the rate's name ("Next day eco"), or the store's ("Camden"). */
  title: string
  /** The method's price ("£3.95"), when an amount and a currency are known. */
  priceText: string | null
  /**
   * "Estimated price" when the delivery was chosen at the merchant's estimate (no live quote could price it):
   * say it beside the price wherever the price is shown (the step's summary, the review, the confirmation).
   */
  priceNote: string | null
  /** A delivery's window ("Tomorrow, 12:00–22:00"); null for a collection. */
  windowText: string | null
  /** Where the address column's heading says where the order goes: "Shipping address" or "Collect from". */
  addressHeading: string
  /** A collection's store address on one line; null for a delivery (show the shopper's address). */
  storeAddress: string | null
  /** A collection's store's own words for collecting there ("Ask at the desk upstairs"); null without any. */
  storeInstructions: string | null
}

/** The words of a chosen method, for a checkout step's summary, its review, or an order's frame. */
export function describeChosenMethod(
  method: LastmileChosenMethod,
  options: Omit<LastmileFormatOptions, "co2Unit"> & { currencyCode?: string | null } = {}
): LastmileChosenMethodText {
  const collection = method.kind === "collection"
  return {
    heading: collection ? "Collection" : "Delivery",
    title: method.name ?? (collection ? "Collection" : "Delivery"),
    priceText:
      method.amount !== null && options.currencyCode
        ? formatAmount(method.amount, options.currencyCode, options)
        : null,
    priceNote: !collection && method.fallback ? ESTIMATE_NOTE : null,
    windowText: collection ? null : formatWindow(method.window, options),
    addressHeading: collection ? "Collect from" : "Shipping address",
    storeAddress: collection ? formatStoreAddress(method.store?.address) : null,
    storeInstructions: collection ? (method.store?.instructions ?? null) : null,
  }
}

/**
 * A shipping method's data is lastmile's when it says so (`provider:
 * "lastmile"` with its `kind`), or, for the older data, when its
 * `optionId` names a lastmile delivery or collection option
 * (`lastmile-<type>`, `lastmile-collection`); returns are not shown.
 */
export function lastmileKindOf(data: Record<string, unknown> | null | undefined): "delivery" | "collection" | null {
  if (data?.provider === "lastmile" && (data.kind === "delivery" || data.kind === "collection")) {
    return data.kind
  }
  const optionId = data?.optionId
  if (typeof optionId !== "string" || !optionId.startsWith("lastmile-") || optionId === "lastmile-return") {
    return null
  }
  return optionId === "lastmile-collection" ? "collection" : "delivery"
}

export function windowOf(value: unknown): LastmileWindow | null {
  if (!value || typeof value !== "object" || !("from" in value) || !("to" in value)) {
    return null
  }
  return typeof value.from === "string" && typeof value.to === "string" ? { from: value.from, to: value.to } : null
}

export function text(value: unknown): string | null {
  return typeof value === "string" && value.trim() ? value : null
}
