/**
 * Twilio SMS, as Medusa's guide builds it ("Implement Phone Authentication", its `twilio-sms` provider), with Twilio's
 * own SDK: the text is `content.text` (the plugin's SMS), else a template of its own; an unknown template throws.
 */
import { AbstractNotificationProviderService } from "@medusajs/framework/utils"
import type { ProviderSendNotificationDTO, ProviderSendNotificationResultsDTO } from "@medusajs/framework/types"
import { Twilio } from "twilio"

type InjectedDependencies = Record<string, unknown>

type TwilioSmsServiceOptions = {
  accountSid: string
  authToken: string
  from: string
}

export class TwilioSmsService extends AbstractNotificationProviderService {
  static readonly identifier = "twilio-sms"
  private readonly client: Twilio
  private readonly from: string

  constructor(_container: InjectedDependencies, options: TwilioSmsServiceOptions) {
    super()
    this.client = new Twilio(options.accountSid, options.authToken)
    this.from = options.from
  }

  static validateOptions(options: Record<string, unknown>): void | never {
    if (!options.accountSid) {
      throw new Error("Account SID is required")
    }
    if (!options.authToken) {
      throw new Error("Auth token is required")
    }
    if (!options.from) {
      throw new Error("From is required")
    }
  }

  async send(notification: ProviderSendNotificationDTO): Promise<ProviderSendNotificationResultsDTO> {
    const { to, content, template, data } = notification
    const contentText = content?.text || (await this.getTemplateContent(template, data))
    const message = await this.client.messages.create({ body: contentText, from: this.from, to })
    return { id: message.sid }
  }

  async getTemplateContent(template: string, data?: Record<string, unknown> | null): Promise<string> {
    switch (template) {
      case "otp-template":
        if (!data?.otp) {
          throw new Error("OTP is required for OTP template")
        }
        return `Your OTP is ${String(data.otp)}`
      default:
        throw new Error(`Template ${template} not found`)
    }
  }
}
