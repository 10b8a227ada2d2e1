import { ModuleProvider, Modules } from "@medusajs/framework/utils"
import { LastmileFulfillmentProviderService } from "./service"

export default ModuleProvider(Modules.FULFILLMENT, {
  services: [LastmileFulfillmentProviderService],
})
