/** The Slack provider with the lines that post the plugin's `content`, as a module provider. */
import { ModuleProvider, Modules } from "@medusajs/framework/utils"
import { SlackContentNotificationProviderService } from "./content"

export default ModuleProvider(Modules.NOTIFICATION, { services: [SlackContentNotificationProviderService] })
