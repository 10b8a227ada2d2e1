/** The guide's Resend provider as a module provider (medusa-config: `resolve: "./src/modules/resend"`). */
import { ModuleProvider, Modules } from "@medusajs/framework/utils"
import { ResendNotificationProviderService } from "./service"

export default ModuleProvider(Modules.NOTIFICATION, { services: [ResendNotificationProviderService] })
