/** The guide's Twilio SMS provider as a module provider (medusa-config: `resolve: "./src/modules/twilio-sms"`). */
import { ModuleProvider, Modules } from "@medusajs/framework/utils"
import { TwilioSmsService } from "./service"

export default ModuleProvider(Modules.NOTIFICATION, { services: [TwilioSmsService] })
