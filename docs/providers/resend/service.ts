/**
 * Resend, as Medusa's guide builds it ("Integrate Medusa with Resend"), with Resend's own SDK: a template id picks the
 * email, and an id it does not know is logged and answered with `{}`, as is an error from Resend. The guide's React
 * Email templates are left out (its `html_templates` option stays): the plugin's messages carry their words in
 * `content`, which this provider ignores; `content.ts` beside it adds the few lines that use them.
 */
import { AbstractNotificationProviderService, MedusaError } from "@medusajs/framework/utils"
import type { Logger, ProviderSendNotificationDTO, ProviderSendNotificationResultsDTO } from "@medusajs/framework/types"
import { type CreateEmailOptions, Resend } from "resend"

enum Templates {
  ORDER_PLACED = "order-placed",
}

const templates: { [key in Templates]?: (props: unknown) => string } = {
  [Templates.ORDER_PLACED]: () => "<p>Thank you for your order.</p>",
}

export type ResendOptions = {
  api_key: string
  from: string
  html_templates?: Record<string, { subject?: string; content: string }>
}

type InjectedDependencies = { logger: Logger }

export class ResendNotificationProviderService extends AbstractNotificationProviderService {
  static identifier = "notification-resend"
  protected resendClient: Resend
  protected options: ResendOptions
  protected logger: Logger

  constructor({ logger }: InjectedDependencies, options: ResendOptions) {
    super()
    this.resendClient = new Resend(options.api_key)
    this.options = options
    this.logger = logger
  }

  static validateOptions(options: Record<string, unknown>) {
    if (!options.api_key) {
      throw new MedusaError(MedusaError.Types.INVALID_DATA, "Option `api_key` is required in the provider's options.")
    }
    if (!options.from) {
      throw new MedusaError(MedusaError.Types.INVALID_DATA, "Option `from` is required in the provider's options.")
    }
  }

  getTemplate(template: Templates) {
    if (this.options.html_templates?.[template]) {
      return this.options.html_templates[template].content
    }
    const allowedTemplates = Object.keys(templates)
    if (!allowedTemplates.includes(template)) {
      return null
    }
    return templates[template]
  }

  getTemplateSubject(template: Templates) {
    if (this.options.html_templates?.[template]?.subject) {
      return this.options.html_templates[template].subject
    }
    switch (template) {
      case Templates.ORDER_PLACED:
        return "Order Confirmation"
      default:
        return "New Email"
    }
  }

  async send(notification: ProviderSendNotificationDTO): Promise<ProviderSendNotificationResultsDTO> {
    const template = this.getTemplate(notification.template as Templates)
    if (!template) {
      this.logger.error(
        `Couldn't find an email template for ${notification.template}. The valid options are ${Object.values(Templates)}`
      )
      return {}
    }
    const commonOptions = {
      from: this.options.from,
      to: [notification.to],
      subject: this.getTemplateSubject(notification.template as Templates) ?? "New Email",
    }
    const emailOptions: CreateEmailOptions = {
      ...commonOptions,
      html: typeof template === "string" ? template : template(notification.data),
    }
    const { data, error } = await this.resendClient.emails.send(emailOptions)
    if (error || !data) {
      this.logger.error(error ? `Failed to send email: ${error.message}` : "Failed to send email: unknown error")
      return {}
    }
    return { id: data.id }
  }
}
