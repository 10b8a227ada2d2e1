/** Whether Medusa cancelled a collection's fulfillment (its items then went back to stock): read before a hand-over. */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"

export async function readFulfillmentCancelled(container: MedusaContainer, fulfillmentId: string): Promise<boolean> {
  const { data } = await container.resolve(ContainerRegistrationKeys.QUERY).graph({
    entity: "fulfillment",
    fields: ["id", "canceled_at"],
    filters: { id: fulfillmentId },
  })
  return !!data[0]?.canceled_at
}
