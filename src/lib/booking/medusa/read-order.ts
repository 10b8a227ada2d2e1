/** The order a route names: a 404 for an id that names none, rather than an empty answer. */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, MedusaError } from "@medusajs/framework/utils"

export async function assertOrderExists(container: MedusaContainer, orderId: string): Promise<void> {
  const { data } = await container
    .resolve(ContainerRegistrationKeys.QUERY)
    .graph({ entity: "order", fields: ["id"], filters: { id: orderId } })
  if (!data.length) {
    throw new MedusaError(MedusaError.Types.NOT_FOUND, `Order with id: ${orderId} was not found`)
  }
}
