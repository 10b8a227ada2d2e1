/** Medusa's stock locations with their fulfillment sets' options and sales channels, read once for the admin and the setup. */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import type { StockLocationRow } from "../stock-locations"

export async function readStockLocations(container: MedusaContainer): Promise<StockLocationRow[]> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({
    entity: "stock_location",
    fields: [
      "id",
      "name",
      "address.*",
      "sales_channels.id",
      "sales_channels.name",
      "fulfillment_providers.id",
      "fulfillment_sets.id",
      "fulfillment_sets.type",
      "fulfillment_sets.service_zones.id",
      "fulfillment_sets.service_zones.shipping_options.id",
      "fulfillment_sets.service_zones.shipping_options.provider_id",
      "fulfillment_sets.service_zones.shipping_options.data",
    ],
  })
  return data
}
