/**
 * Slack, as Medusa's guide builds it ("Send Slack Notifications"): an incoming webhook posted with axios, one template
 * (`order-created`, from `data.order`), and any other template thrown as not supported. `content.ts` beside it adds
 * the few lines that post the plugin's words instead.
 */
import { AbstractNotificationProviderService, MedusaError } from "@medusajs/framework/utils"
import type {
  OrderDTO,
  ProviderSendNotificationDTO,
  ProviderSendNotificationResultsDTO,
} from "@medusajs/framework/types"
import axios from "axios"

export type SlackOptions = {
  webhook_url: string
  admin_url: string
}

type InjectedDependencies = Record<string, unknown>

export class SlackNotificationProviderService extends AbstractNotificationProviderService {
  static identifier = "slack"
  protected options: SlackOptions

  constructor(_container: InjectedDependencies, options: SlackOptions) {
    super()
    this.options = options
  }

  static validateOptions(options: Record<string, unknown>): void | never {
    if (!options.webhook_url) {
      throw new MedusaError(MedusaError.Types.INVALID_ARGUMENT, "Webhook URL is required")
    }
    if (!options.admin_url) {
      throw new MedusaError(MedusaError.Types.INVALID_ARGUMENT, "Admin URL is required")
    }
  }

  async send(notification: ProviderSendNotificationDTO): Promise<ProviderSendNotificationResultsDTO> {
    const { template } = notification
    switch (template) {
      case "order-created":
        return this.sendOrderNotification(notification)
      default:
        throw new MedusaError(MedusaError.Types.NOT_FOUND, `Template ${template} not supported`)
    }
  }

  async sendOrderNotification(notification: ProviderSendNotificationDTO) {
    const order = notification.data?.order as OrderDTO | undefined
    if (!order) {
      throw new MedusaError(MedusaError.Types.NOT_FOUND, "Order not found")
    }
    const blocks: Record<string, unknown>[] = [
      {
        type: "section",
        text: {
          type: "mrkdwn",
          text: `Order *<${this.options.admin_url}/orders/${order.id}|#${order.display_id}>* has been created.`,
        },
      },
    ]
    await axios.post(this.options.webhook_url, { text: `Order ${order.display_id} was created`, blocks })
    return { id: order.id }
  }
}
