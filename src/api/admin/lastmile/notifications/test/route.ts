/**
 * POST /admin/lastmile/notifications/test {email?, phone?}: every message that is on, sent once from a sample order to
 * the address and phone given, with what each provider answered (decision 61).
 */
import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { sendTestNotificationsWorkflow } from "../../../../../workflows/send-test-notifications"
import type { NotificationTestReport } from "../../../../../lib/contracts/admin-api"
import type { SendTestType } from "../../validators"
import { answerWorkflowError } from "../../workflow-error"

export async function POST(req: AuthenticatedMedusaRequest<SendTestType>, res: MedusaResponse): Promise<void> {
  const { email = null, phone = null } = req.validatedBody
  const { result, errors } = await sendTestNotificationsWorkflow(req.scope).run({
    input: { email, phone },
    throwOnError: false,
  })
  if (errors.length) {
    return answerWorkflowError(res, errors[0], "The test could not be sent")
  }
  res.json(result satisfies NotificationTestReport)
}
