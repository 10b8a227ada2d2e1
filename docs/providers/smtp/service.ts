/**
 * Email over SMTP with nodemailer (Medusa has no guide for it): any mail server or relay (Postmark, SES, Mailgun,
 * your own). It sends the plugin's `content` (subject, text and HTML) and answers with the server's message id; a
 * message without content, or one the server refuses, throws, so Medusa records the failure.
 */
import { AbstractNotificationProviderService, MedusaError } from "@medusajs/framework/utils"
import type { ProviderSendNotificationDTO, ProviderSendNotificationResultsDTO } from "@medusajs/framework/types"
import nodemailer, { type Transporter } from "nodemailer"

export type SmtpOptions = {
  host: string
  port: number
  /** TLS from the start (port 465); otherwise STARTTLS when the server offers it. */
  secure?: boolean
  auth?: { user: string; pass: string }
  from: string
}

export class SmtpNotificationProviderService extends AbstractNotificationProviderService {
  static identifier = "notification-smtp"
  private readonly transporter: Transporter
  private readonly from: string

  constructor(_container: Record<string, unknown>, options: SmtpOptions) {
    super()
    this.transporter = nodemailer.createTransport({
      host: options.host,
      port: options.port,
      secure: options.secure ?? false,
      auth: options.auth,
    })
    this.from = options.from
  }

  static validateOptions(options: Record<string, unknown>): void | never {
    if (!options.host || !options.port || !options.from) {
      throw new MedusaError(MedusaError.Types.INVALID_DATA, "The SMTP provider needs host, port and from")
    }
  }

  async send(notification: ProviderSendNotificationDTO): Promise<ProviderSendNotificationResultsDTO> {
    const content = notification.content
    if (!content?.text && !content?.html) {
      throw new MedusaError(MedusaError.Types.INVALID_DATA, `No content to send for template ${notification.template}`)
    }
    const info = await this.transporter.sendMail({
      from: notification.from?.trim() || this.from,
      to: notification.to,
      subject: content.subject ?? "",
      text: content.text ?? undefined,
      html: content.html ?? undefined,
    })
    return { id: info.messageId }
  }
}
