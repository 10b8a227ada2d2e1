/**
 * Settings → Lastmile's "Send a test" (decision 61): the shop read, then every message that is on sent once from a
 * sample order to the address and phone the merchant typed, with what each provider answered.
 */
import { useQueryGraphStep } from "@medusajs/medusa/core-flows"
import { WorkflowResponse, createWorkflow, transform } from "@medusajs/framework/workflows-sdk"
import { SHOP_FIELDS, shopOf } from "../../lib/notifications/medusa/read-shop"
import type { TestTarget } from "../../lib/notifications/test-messages"
import { sendTestNotificationsStep } from "./steps/send-test-notifications"

export type SendTestNotificationsWorkflowInput = TestTarget

export const sendTestNotificationsWorkflowId = "lastmile-send-test-notifications"

export const sendTestNotificationsWorkflow = createWorkflow(
  sendTestNotificationsWorkflowId,
  (input: SendTestNotificationsWorkflowInput) => {
    const { data: stores } = useQueryGraphStep({ entity: "store", fields: SHOP_FIELDS, pagination: { take: 1 } })
    const target = transform({ input, stores }, ({ input, stores }) => ({
      email: input.email,
      phone: input.phone,
      shop: shopOf(stores[0]),
    }))
    return new WorkflowResponse(sendTestNotificationsStep(target))
  }
)
