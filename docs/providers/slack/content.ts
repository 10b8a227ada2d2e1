/**
 * The few lines that make the guide's Slack provider post the plugin's words (`content.subject` and `content.text`)
 * for any template it has none for. Slack's webhook answers "ok" and no id: the answer's id says Slack took it.
 */
import type { ProviderSendNotificationDTO, ProviderSendNotificationResultsDTO } from "@medusajs/framework/types"
import axios from "axios"
import { SlackNotificationProviderService } from "./service"

export class SlackContentNotificationProviderService extends SlackNotificationProviderService {
  async send(notification: ProviderSendNotificationDTO): Promise<ProviderSendNotificationResultsDTO> {
    const content = notification.content
    if (notification.template === "order-created" || !content?.text) {
      return super.send(notification)
    }
    const text = [content.subject ? `*${content.subject}*` : null, content.text].filter(Boolean).join("\n")
    const answer = await axios.post(this.options.webhook_url, { text })
    return { id: `slack:${answer.headers["x-slack-req-id"] ?? Date.now()}` }
  }
}
