/** What a shopper may send back from an order, as the confirmation's return form offers it. */
import type { HttpTypes } from "@medusajs/types"
import { formatStoreAddress, readStoreAddress } from "medusa-plugin-lastmile-storefront"

export interface ReturnableItem {
  id: string
  title: string
  /** How many can still be sent back: sent, less what is already on its way back or back. */
  returnable: number
}

export interface ReturnOffer {
  /** The lastmile return option; null when the shop offers none for this order. */
  optionId: string | null
  items: ReturnableItem[]
  /** The order's address, where the courier collects the return. */
  collectFrom: string | null
}

export function toReturnOffer(order: HttpTypes.StoreOrder, optionId: string | null): ReturnOffer {
  return {
    optionId,
    items: (order.items ?? []).map(toReturnableItem),
    // Written as a store's address is: the lines a courier needs, on one line.
    collectFrom: formatStoreAddress(readStoreAddress(order.shipping_address)),
  }
}

/** Medusa accepts a return of what was fulfilled and not yet asked back; what came back is not offered again. */
function toReturnableItem(item: HttpTypes.StoreOrderLineItem): ReturnableItem {
  const detail = item.detail
  const sent = Number(detail?.fulfilled_quantity ?? 0)
  const back =
    Number(detail?.return_requested_quantity ?? 0) +
    Number(detail?.return_received_quantity ?? 0) +
    Number(detail?.return_dismissed_quantity ?? 0)
  return {
    id: item.id,
    title: item.product_title ?? item.title,
    returnable: Math.max(0, sent - back),
  }
}
