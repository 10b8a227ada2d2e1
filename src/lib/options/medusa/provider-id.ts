/**
 * The id Medusa registered the plugin's provider under (`lastmile_<id>`, decision 37), read from the fulfillment
 * module once per app.
 */
import type { IFulfillmentModuleService, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, MedusaError, Modules } from "@medusajs/framework/utils"
import { isLastmileProviderId } from "../../contracts/fulfillment-options"

/** By the app's fulfillment module (one per app, whatever container scope asks). */
const read = new WeakMap<IFulfillmentModuleService, Promise<string | null>>()

/** The provider's id, or null when the app has not registered (or has disabled) the provider. */
export function lastmileProviderId(container: MedusaContainer): Promise<string | null> {
  const fulfillment = container.resolve<IFulfillmentModuleService>(Modules.FULFILLMENT)
  let id = read.get(fulfillment)
  if (!id) {
    const query = container.resolve(ContainerRegistrationKeys.QUERY)
    id = query
      .graph({ entity: "fulfillment_provider", fields: ["id"], filters: { is_enabled: true } })
      // Should an app register the provider twice, the first id is the one the plugin works with.
      .then(
        ({ data }) =>
          data
            .map((provider): string => provider.id)
            .filter(isLastmileProviderId)
            .sort()[0] ?? null
      )
    id.catch(() => read.delete(fulfillment))
    read.set(fulfillment, id)
  }
  return id
}

/** The provider's id where the plugin cannot work without it (creating options, linking locations). */
export async function requireLastmileProviderId(container: MedusaContainer): Promise<string> {
  const id = await lastmileProviderId(container)
  if (!id) {
    throw new MedusaError(
      MedusaError.Types.NOT_ALLOWED,
      "The lastmile fulfillment provider is not registered: add it to the fulfillment module's providers in medusa-config.ts"
    )
  }
  return id
}
