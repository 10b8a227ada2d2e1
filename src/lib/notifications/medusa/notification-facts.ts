/**
 * What a task's messages are written from: the order, the booked rate, a collection's store and its opening hours at
 * the service (a failed read leaves the hours out, never the message).
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import type { QuotedRate } from "../../contracts/quoted-rate"
import { type MedusaAddress, readFulfillmentData } from "../../contracts/plugin-data"
import type { NotificationFacts } from "../notification-data"
import type { LastmileNotificationEvent, TaskMode } from "../notification-events"
import { type OpeningHours, readOpeningHours } from "../opening-hours"

/** The task row's columns the facts are read from. */
export interface FactsRow {
  id: string
  kind: "delivery" | "return"
  origin: string | null
  status: string
  order_id: string
  fulfillment_id: string | null
  stock_location_id: string | null
  merchant_location_id: string | null
  service_status: string | null
  tracking_id: string | null
  tracking_url: string | null
  rate_code: string | null
  quoted_rate: unknown
  attempts: number
  last_error: string | null
  next_attempt_at: Date | string | null
}

/** What the facts need of the plugin beside Medusa: a store's operating hours at the service, an order's admin URL. */
export interface FactsSources {
  /** The service's `operatingHours` of the store with this external id; rejects when the service cannot say. */
  operatingHours(externalId: string): Promise<unknown>
  adminOrderUrl(orderId: string): string
}

const STORE_EVENTS: LastmileNotificationEvent[] = ["collection_booked", "collection_ready", "collection_reminder"]

const ADDRESS_FIELDS = ["first_name", "last_name", "address_1", "address_2", "city", "postal_code", "country_code"]

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
      "customer.first_name",
      "customer.last_name",
      ...ADDRESS_FIELDS.map((f) => `shipping_address.${f}`),
    ],
    filters: { id: row.order_id },
  })
  const order = orders[0]
  if (!order) {
    throw new Error(`order ${row.order_id} was not found`)
  }
  const fulfillment = row.fulfillment_id
    ? (await query.graph({ entity: "fulfillment", fields: ["id", "data"], filters: { id: row.fulfillment_id } }))
        .data[0]
    : undefined
  const booked = readFulfillmentData(fulfillment?.data)
  const quoted = quotedRateOf(row.quoted_rate)

  let store: NotificationFacts["store"] = null
  if (mode === "collection") {
    let name = booked?.store?.name ?? quoted?.name ?? booked?.rateName ?? null
    let address: MedusaAddress | null = booked?.store?.address ?? null
    if (!address && row.stock_location_id) {
      const { data } = await query.graph({
        entity: "stock_location",
        fields: ["id", "name", ...ADDRESS_FIELDS.map((f) => `address.${f}`)],
        filters: { id: row.stock_location_id },
      })
      name ??= data[0]?.name ?? null
      address = data[0]?.address ?? null
    }
    const hours = events.some((e) => STORE_EVENTS.includes(e))
      ? await openingHours(sources, row.merchant_location_id)
      : null
    store = { name, address, hours }
  }

  const shipping = order.shipping_address ?? null
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
    },
    rate: quoted
      ? { code: quoted.rate_code, name: quoted.name, window: quoted.window }
      : booked
        ? { code: row.rate_code, name: booked.rateName ?? null, window: booked.window ?? null }
        : null,
    store,
    admin_url: sources.adminOrderUrl(order.id),
  }
}
