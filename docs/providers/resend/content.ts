/**
 * The few lines that make the guide's Resend provider send the plugin's words (`content`: subject, text and HTML)
 * before looking for a template of its own, and throw when Resend refuses, so Medusa records the failure.
 */
import type { ProviderSendNotificationDTO, ProviderSendNotificationResultsDTO } from "@medusajs/framework/types"
import type { CreateEmailOptions } from "resend"
import { ResendNotificationProviderService } from "./service"

export class ResendContentNotificationProviderService extends ResendNotificationProviderService {
  async send(notification: ProviderSendNotificationDTO): Promise<ProviderSendNotificationResultsDTO> {
    const content = notification.content
    if (!content?.html && !content?.text) {
      return super.send(notification)
    }
    const { data, error } = await this.resendClient.emails.send({
      from: this.options.from,
      to: [notification.to],
      subject: content.subject ?? "",
      html: content.html ?? undefined,
      text: content.text ?? undefined,
    } as CreateEmailOptions)
    if (error || !data) {
      throw new Error(`Resend did not send the email: ${error?.message ?? "no answer"}`)
    }
    return { id: data.id }
  }
}
