/**
 * Reads the service's and Medusa's stock locations, then plans the setup (lib/store/shipping-setup.ts, decision 28)
 * from them and what the workflow read, before anything is created. Unknown ids in the request are NOT_FOUND.
 */
import { MedusaError } from "@medusajs/framework/utils"
import { StepResponse, createStep } from "@medusajs/framework/workflows-sdk"
import { readLocationState } from "../../../lib/store/medusa/read-location-state"
import { requireLastmileProviderId } from "../../../lib/options/medusa/provider-id"
import { buildFulfillmentOptions } from "../../../lib/contracts/fulfillment-options"
import { planShippingSetup, regionCurrencies, tickedSalesChannels } from "../../../lib/store/shipping-setup"
import type { SalesChannelRef, SetupRequest } from "../../../lib/contracts/admin-api"
import { ServiceConnectionService } from "../../../modules/lastmile/services/service-connection"

export interface PlanShippingSetupInput {
  request: SetupRequest
  shipping_profile_id: string | null
  regions: { currency_code: string }[]
  sales_channels: SalesChannelRef[]
}

export const planShippingSetupStepId = "lastmile-plan-shipping-setup"

export const planShippingSetupStep = createStep(
  planShippingSetupStepId,
  async ({ request, shipping_profile_id, regions, sales_channels }: PlanShippingSetupInput, { container }) => {
    const { remote, stock, options } = await readLocationState(container, ServiceConnectionService.of(container).get())
    const returnLocationId = request.return_location_id ?? null
    if (returnLocationId && !stock.some((s) => s.id === returnLocationId)) {
      throw new MedusaError(MedusaError.Types.NOT_FOUND, `Stock location with id: ${returnLocationId} was not found`)
    }
    const ticked = tickedSalesChannels(request.sales_channel_ids ?? [], sales_channels)
    if (ticked.missing.length) {
      const missing = ticked.missing.join(", ")
      throw new MedusaError(MedusaError.Types.NOT_FOUND, `Sales channel with id: ${missing} was not found`)
    }
    const plan = planShippingSetup({
      remote,
      stock,
      options: buildFulfillmentOptions(options.deliveryTypes),
      shippingProfileId: shipping_profile_id,
      returnLocationId,
      salesChannels: ticked.channels,
      currencies: regionCurrencies(regions),
    })
    // What the run links and creates is the provider's, under the id the app registered it with (decision 37).
    return new StepResponse({ ...plan, provider_id: await requireLastmileProviderId(container) })
  }
)
