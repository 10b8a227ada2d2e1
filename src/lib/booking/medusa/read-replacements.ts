/**
 * An order's exchanges and claims, as the booking reads them: each replacement's own items (booked as its own delivery,
 * never with the order's) and the options its outbound methods use; and the return of one's inbound items.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import type { ReplacementRef } from "../delivery-unit"

export interface OrderReplacement extends ReplacementRef {
  cancelled: boolean
  /** When it was created: a replacement's booking latency is measured from here. */
  created_at: string | Date | null
  /** The shipping options of its outbound methods. */
  option_ids: string[]
}

interface ReplacementRow {
  id: string
  canceled_at?: unknown
  created_at?: string | Date | null
  additional_items?: ({ item_id?: string | null } | null)[] | null
  shipping_methods?: ({ shipping_option_id?: string | null } | null)[] | null
}

const FIELDS = ["id", "canceled_at", "created_at", "additional_items.item_id", "shipping_methods.shipping_option_id"]

export async function readOrderReplacements(container: MedusaContainer, orderId: string): Promise<OrderReplacement[]> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const [exchanges, claims] = await Promise.all([
    query.graph({ entity: "order_exchange", fields: FIELDS, filters: { order_id: orderId } }),
    query.graph({ entity: "order_claim", fields: FIELDS, filters: { order_id: orderId } }),
  ])
  const read = (kind: OrderReplacement["kind"]) => (row: ReplacementRow) => ({
    id: row.id,
    kind,
    cancelled: !!row.canceled_at,
    created_at: row.created_at ?? null,
    item_ids: (row.additional_items ?? []).flatMap((i) => (i?.item_id ? [i.item_id] : [])),
    option_ids: (row.shipping_methods ?? []).flatMap((m) => (m?.shipping_option_id ? [m.shipping_option_id] : [])),
  })
  return [
    ...(exchanges.data as ReplacementRow[]).map(read("exchange")),
    ...(claims.data as ReplacementRow[]).map(read("claim")),
  ]
}

/** The return of an exchange's or a claim's inbound items, if it has one. */
export async function replacementReturnId(container: MedusaContainer, referenceId: string): Promise<string | null> {
  const { data } = await container.resolve(ContainerRegistrationKeys.QUERY).graph({
    entity: referenceId.startsWith("claim") ? "order_claim" : "order_exchange",
    fields: ["id", "return_id"],
    filters: { id: referenceId },
  })
  return data[0]?.return_id ?? null
}
