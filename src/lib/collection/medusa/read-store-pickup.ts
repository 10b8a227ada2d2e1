/**
 * What a store's stock location says of collecting there (decision 65): instructions, closed dates and position, its
 * days, and a ready collection as its shopper sees it, read with Medusa's query.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import {
  NO_PICKUP_SETTINGS,
  type PickupSettings,
  type StorePosition,
  readPickupSettings,
  readStorePosition,
} from "../pickup-settings"
import { readCollectionRecord, shopperCollectionView } from "../collection-hold"
import type { LastmileCollectionView } from "medusa-plugin-lastmile-storefront"

export interface StorePickupRead {
  id: string
  name: string | null
  pickup: PickupSettings
  position: StorePosition | null
  /** The address's id and the fields Medusa's address upsert needs with it; null without an address. */
  address_ref: { id: string; address_1: string; country_code: string } | null
  /** The address as a shopper is shown it. */
  address: {
    address_1: string | null
    address_2: string | null
    city: string | null
    postal_code: string | null
    country_code: string | null
  } | null
  /** The address's metadata as kept, which an update must write back merged (Medusa replaces a JSON column whole). */
  address_metadata: Record<string, unknown> | null
  metadata: Record<string, unknown> | null
}

/** A ready collection as its shopper sees it (decision 65): by when, the code, the store and its instructions. */
export async function readShopperCollection(
  container: MedusaContainer,
  task: {
    status: string
    tracking_state: string
    cancellation: unknown
    collection: unknown
    stock_location_id: string | null
  },
  now: Date
): Promise<LastmileCollectionView | null> {
  const record = readCollectionRecord(task.collection)
  if (!record?.ready_at) {
    return null
  }
  const store = await readStorePickup(container, task.stock_location_id)
  const state = { status: task.status, tracking_state: task.tracking_state, cancelled: !!task.cancellation }
  const view = store ? { name: store.name, address: store.address, instructions: store.pickup.instructions } : null
  return shopperCollectionView(record, state, store && { view, instructions: store.pickup.instructions }, now)
}

/** The stock location's pickup settings; null when there is no such location. */
export async function readStorePickup(
  container: MedusaContainer,
  stockLocationId: string | null | undefined
): Promise<StorePickupRead | null> {
  if (!stockLocationId) {
    return null
  }
  const { data } = await container.resolve(ContainerRegistrationKeys.QUERY).graph({
    entity: "stock_location",
    fields: [
      "id",
      "name",
      "metadata",
      "address.metadata",
      "address.id",
      "address.address_1",
      "address.address_2",
      "address.city",
      "address.postal_code",
      "address.country_code",
    ],
    filters: { id: stockLocationId },
  })
  const row = data[0] as
    | {
        id: string
        name?: string | null
        metadata?: Record<string, unknown> | null
        address?: ({ metadata?: unknown } & Record<string, unknown>) | null
      }
    | undefined
  if (!row) {
    return null
  }
  const addressMetadata = (row.address?.metadata as Record<string, unknown> | null | undefined) ?? null
  return {
    id: row.id,
    name: row.name ?? null,
    pickup: addressMetadata ? readPickupSettings(addressMetadata) : NO_PICKUP_SETTINGS,
    position: readStorePosition(row.metadata),
    address_ref:
      typeof row.address?.id === "string" && textOf(row.address.address_1) && textOf(row.address.country_code)
        ? {
            id: row.address.id,
            address_1: String(row.address.address_1),
            country_code: String(row.address.country_code),
          }
        : null,
    address: row.address
      ? {
          address_1: textOf(row.address.address_1),
          address_2: textOf(row.address.address_2),
          city: textOf(row.address.city),
          postal_code: textOf(row.address.postal_code),
          country_code: textOf(row.address.country_code),
        }
      : null,
    address_metadata: addressMetadata,
    metadata: row.metadata ?? null,
  }
}

function textOf(value: unknown): string | null {
  return typeof value === "string" && value.trim() ? value.trim() : null
}

/** A store's days as step data travels: its hours as the service gives them, its closed dates, the zone without one. */
export interface StoreDaysRead {
  operating_hours: unknown
  closed_dates: string[]
  fallback_zone: string
}

/**
 * The days of the store a collection waits at (decision 65): the merchant's closed dates on its stock location and
 * its hours at the service (`serviceHours`, handed in by the caller); a part that cannot be read is left out.
 */
export async function readStoreDays(
  container: MedusaContainer,
  store: { stock_location_id: string | null; merchant_location_id: string | null },
  { serviceHours, fallbackZone }: { serviceHours: (externalId: string) => Promise<unknown>; fallbackZone: string }
): Promise<StoreDaysRead> {
  const [pickup, hours] = await Promise.all([
    readStorePickup(container, store.stock_location_id).catch(() => null),
    store.merchant_location_id ? serviceHours(store.merchant_location_id).catch(() => null) : null,
  ])
  return {
    operating_hours: hours ?? null,
    closed_dates: pickup?.pickup.closed_dates ?? [],
    fallback_zone: fallbackZone,
  }
}
