/** The Resend provider with the lines that send the plugin's `content`, as a module provider. */
import { ModuleProvider, Modules } from "@medusajs/framework/utils"
import { ResendContentNotificationProviderService } from "./content"

export default ModuleProvider(Modules.NOTIFICATION, { services: [ResendContentNotificationProviderService] })
