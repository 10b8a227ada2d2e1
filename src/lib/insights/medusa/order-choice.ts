/** The lastmile options an order was placed with, keyed as the offer counters key them (decision 53). */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import type { OrderChoice } from "../insight-events"
import { readOptionCatalogue } from "./option-catalogue"

export interface PlacedOrder {
  id: string
  created_at: Date
  customer_id: string | null
}

export async function readOrderChoices(
  container: MedusaContainer,
  orderId: string
): Promise<{ order: PlacedOrder; choices: OrderChoice[] } | null> {
  const { data } = await container.resolve(ContainerRegistrationKeys.QUERY).graph({
    entity: "order",
    fields: ["id", "created_at", "customer_id", "shipping_methods.shipping_option_id"],
    filters: { id: orderId },
  })
  const row = data[0] as
    | {
        id: string
        created_at: string | Date
        customer_id?: string | null
        shipping_methods?: ({ shipping_option_id?: string | null } | null)[] | null
      }
    | undefined
  if (!row) {
    return null
  }
  const ids = [
    ...new Set((row.shipping_methods ?? []).flatMap((m) => (m?.shipping_option_id ? [m.shipping_option_id] : []))),
  ]
  const options = await readOptionCatalogue(container, ids)
  return {
    order: { id: row.id, created_at: new Date(row.created_at), customer_id: row.customer_id ?? null },
    choices: options.map((o) => ({
      shipping_option_id: o.id,
      name: o.name,
      fulfillment_option: o.fulfillment_option,
      stock_location_id: o.stock_location_id,
    })),
  }
}
