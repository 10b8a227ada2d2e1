/**
 * What a task's messages are written from: the order (locale, phone, items, the merchant's `no_notification`), the
 * rate and the windows given since, a collection's store and hours, the shop (decisions 49 and 60). */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import type { QuotedRate } from "../../contracts/quoted-rate"
import { type MedusaAddress, readFulfillmentData } from "../../contracts/plugin-data"
import type { NotificationFacts, QuietSource } from "../notification-data"
import type { TaskHistoryEntry } from "../../contracts/admin-api"
import type { LastmileNotificationEvent, TaskMode } from "../notification-events"
import { type OpeningHours, readOpeningHours } from "../../collection/store-hours"
import { readPickupSettings } from "../../collection/pickup-settings"
import { readCollectionRecord } from "../../collection/collection-hold"

/** The task row's columns the facts are read from. */
export interface FactsRow {
  id: string
  kind: "delivery" | "return"
  origin: string | null
  status: string
  order_id: string
  fulfillment_id: string | null
  return_id?: string | null
  merchant_order_id?: string
  status_history?: { entries?: unknown[] } | null
  stock_location_id: string | null
  merchant_location_id: string | null
  service_status: string | null
  tracking_id: string | null
  tracking_url: string | null
  rate_code: string | null
  quoted_rate: unknown
  /** A collection's record at the store (decision 65). */
  collection?: unknown
  attempts: number
  last_error: string | null
  next_attempt_at: Date | string | null
}

/** What the facts need of the plugin beside Medusa: a store's operating hours at the service, an order's admin URL. */
export interface FactsSources {
  /** The service's `operatingHours` of the store with this external id; rejects when the service cannot say. */
  operatingHours(externalId: string): Promise<unknown>
  adminOrderUrl(orderId: string): string
  /** `notifications.shop_name`; null: the store's name. */
  shopName?: string | null
  /** The order on the storefront, from `notifications.order_url`; null when not set. */
  orderUrl?: (orderId: string) => string | null
}

const STORE_EVENTS: LastmileNotificationEvent[] = [
  "collection_booked",
  "collection_ready",
  "collection_reminder",
  "collection_extended",
]

const ADDRESS_FIELDS = [
  "first_name",
  "last_name",
  "address_1",
  "address_2",
  "city",
  "postal_code",
  "country_code",
  "phone",
]

type Titled = { title?: string | null; quantity?: unknown } | null | undefined

/** An order line as `items.*` reads it (the generated query types name more; untyped, it is any). */
type OrderItem = {
  id?: string
  title?: string | null
  product_title?: string | null
  variant_title?: string | null
  quantity?: unknown
} | null

function itemsOf(items: Titled[] | null | undefined): { title: string; quantity: number }[] {
  return (items ?? []).flatMap((i) =>
    i?.title && Number(i.quantity) > 0 ? [{ title: i.title, quantity: Number(i.quantity) }] : []
  )
}

/** The windows the service gave with a status (a sync keeps them on the history entry), oldest first. */
function serviceWindows(row: FactsRow): { at: string; from: string; to: string }[] {
  return ((row.status_history?.entries ?? []) as TaskHistoryEntry[]).flatMap((e) =>
    e && typeof e === "object" && e.window && typeof e.window.from === "string" && typeof e.window.to === "string"
      ? [{ at: e.last_at ?? e.at, from: e.window.from, to: e.window.to }]
      : []
  )
}

function iso(value: Date | string | null | undefined): string | null {
  return value ? new Date(value).toISOString() : null
}

function quotedRateOf(value: unknown): QuotedRate | null {
  const rate = value as QuotedRate | null
  return rate && typeof rate === "object" && typeof rate.rate_code === "string" ? rate : null
}

async function openingHours(sources: FactsSources, externalId: string | null): Promise<OpeningHours | null> {
  if (!externalId) {
    return null
  }
  try {
    return readOpeningHours(await sources.operatingHours(externalId))
  } catch {
    // The service's list is for the words only: the message goes without the hours.
    return null
  }
}

export async function readNotificationFacts(
  container: MedusaContainer,
  row: FactsRow,
  mode: TaskMode,
  events: LastmileNotificationEvent[],
  sources: FactsSources
): Promise<NotificationFacts> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data: orders } = await query.graph({
    entity: "order",
    fields: [
      "id",
      "display_id",
      "email",
      "locale",
      "no_notification",
      "customer.first_name",
      "customer.last_name",
      "items.*",
      ...ADDRESS_FIELDS.map((f) => `shipping_address.${f}`),
    ],
    filters: { id: row.order_id },
  })
  const order = orders[0]
  if (!order) {
    throw new Error(`order ${row.order_id} was not found`)
  }
  const fulfillment = row.fulfillment_id
    ? (
        await query.graph({
          entity: "fulfillment",
          fields: ["id", "data", "items.line_item_id", "items.quantity"],
          filters: { id: row.fulfillment_id },
        })
      ).data[0]
    : undefined
  const booked = readFulfillmentData(fulfillment?.data)
  const quoted = quotedRateOf(row.quoted_rate)
  const { quiet, returnItems } = await switchesOf(container, row, order.no_notification === true)

  let store: NotificationFacts["store"] = null
  if (mode === "collection") {
    let name = booked?.store?.name ?? quoted?.name ?? booked?.rateName ?? null
    let address: MedusaAddress | null = booked?.store?.address ?? null
    let instructions: string | null = null
    if (row.stock_location_id) {
      // The store's own words for collecting there are read as they are now: the merchant may have changed them.
      const { data } = await query.graph({
        entity: "stock_location",
        fields: ["id", "name", ...ADDRESS_FIELDS.map((f) => `address.${f}`), "address.metadata"],
        filters: { id: row.stock_location_id },
      })
      name ??= data[0]?.name ?? null
      address ??= data[0]?.address ?? null
      instructions = readPickupSettings(data[0]?.address?.metadata).instructions
    }
    const hours = events.some((e) => STORE_EVENTS.includes(e))
      ? await openingHours(sources, row.merchant_location_id)
      : null
    store = { name, address, hours, instructions }
  }
  const { data: stores } = await query.graph({
    entity: "store",
    fields: ["id", "name", "supported_locales.locale_code"],
    pagination: { take: 1 },
  })

  const shipping = order.shipping_address ?? null
  // The generated query types name the fields read; untyped, the list is any: the subset is all this reads.
  const orderItems = (order.items ?? []) as OrderItem[]
  // An item as the shopper bought it: the product, and its variant when it has a name of its own ("Tee (Large)").
  const titleOf = (id: string | null | undefined) => {
    const item = orderItems.find((i) => i?.id === id)
    const product = item?.product_title?.trim()
    const variant = item?.variant_title?.trim() || item?.title?.trim()
    return product && variant && variant !== product ? `${product} (${variant})` : (product ?? variant ?? null)
  }
  const shipped = (fulfillment?.items ?? []) as ({ line_item_id?: string | null; quantity?: unknown } | null)[]
  const items = itemsOf(
    returnItems
      ? returnItems.map((r) => ({ title: titleOf(r.item_id), quantity: r.quantity }))
      : shipped.length
        ? shipped.map((f) => ({ title: titleOf(f?.line_item_id), quantity: f?.quantity }))
        : orderItems.map((i) => ({ title: titleOf(i?.id), quantity: i?.quantity }))
  )
  return {
    task: {
      id: row.id,
      kind: row.kind,
      mode,
      origin: row.origin,
      status: row.status,
      service_status: row.service_status,
      tracking_id: row.tracking_id ?? booked?.trackingId ?? null,
      tracking_url: row.tracking_url ?? booked?.trackingUrl ?? null,
      attempts: row.attempts,
      last_error: row.last_error,
      next_attempt_at: iso(row.next_attempt_at),
    },
    order: {
      id: order.id,
      // The generated query types say string, the order module number: either reads as the number.
      display_id: order.display_id === null || order.display_id === undefined ? null : Number(order.display_id),
      email: order.email ?? null,
      first_name: shipping?.first_name?.trim() || order.customer?.first_name?.trim() || null,
      last_name: shipping?.last_name?.trim() || order.customer?.last_name?.trim() || null,
      shipping_address: shipping,
      phone: shipping?.phone ?? null,
      locale: order.locale ?? null,
    },
    rate: quoted
      ? { code: quoted.rate_code, name: quoted.name, window: quoted.window }
      : booked
        ? { code: row.rate_code, name: booked.rateName ?? null, window: booked.window ?? null }
        : null,
    store,
    collection: mode === "collection" ? readCollectionRecord(row.collection) : null,
    admin_url: sources.adminOrderUrl(order.id),
    shop_name: sources.shopName ?? stores[0]?.name ?? null,
    order_url: sources.orderUrl?.(order.id) ?? null,
    items,
    service_windows: serviceWindows(row),
    quiet,
    store_locale: stores[0]?.supported_locales?.[0]?.locale_code ?? null,
  }
}

/**
 * Where the merchant said `no_notification` (decision 60): on the order, or on the return, exchange or claim the task
 * is for (the plugin records the dashboard's switch there: Medusa 2.21 drops it); and a return's items.
 */
async function switchesOf(
  container: MedusaContainer,
  row: FactsRow,
  orderQuiet: boolean
): Promise<{ quiet: QuietSource | null; returnItems: { item_id: string; quantity: unknown }[] | null }> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  let quiet: QuietSource | null = orderQuiet ? "order" : null
  let returnItems: { item_id: string; quantity: unknown }[] | null = null
  let parent: { entity: "order_exchange" | "order_claim"; id: string } | null = null
  if (row.return_id) {
    const { data } = await query.graph({
      entity: "return",
      fields: ["id", "no_notification", "exchange_id", "claim_id", "items.item_id", "items.quantity"],
      filters: { id: row.return_id },
    })
    // The return's own columns: the generated query types list its relations, not their ids.
    const found = data[0] as
      | {
          no_notification?: boolean | null
          exchange_id?: string | null
          claim_id?: string | null
          items?: ({ item_id: string; quantity: unknown } | null)[] | null
        }
      | undefined
    quiet ??= found?.no_notification === true ? "return" : null
    const listed = found?.items ?? []
    returnItems = listed.flatMap((i) => (i ? [{ item_id: i.item_id, quantity: i.quantity }] : []))
    parent = found?.exchange_id
      ? { entity: "order_exchange", id: found.exchange_id }
      : found?.claim_id
        ? { entity: "order_claim", id: found.claim_id }
        : null
  } else if ((row.origin === "exchange" || row.origin === "claim") && row.merchant_order_id) {
    parent = { entity: row.origin === "exchange" ? "order_exchange" : "order_claim", id: row.merchant_order_id }
  }
  if (!quiet && parent) {
    const { data } = await query.graph({
      entity: parent.entity,
      fields: ["id", "no_notification"],
      filters: { id: parent.id },
    })
    quiet = data[0]?.no_notification === true ? (parent.entity === "order_exchange" ? "exchange" : "claim") : null
  }
  return { quiet, returnItems }
}
