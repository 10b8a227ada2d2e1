/** The guide's Slack provider as a module provider (medusa-config: `resolve: "./src/modules/slack"`). */
import { ModuleProvider, Modules } from "@medusajs/framework/utils"
import { SlackNotificationProviderService } from "./service"

export default ModuleProvider(Modules.NOTIFICATION, { services: [SlackNotificationProviderService] })
