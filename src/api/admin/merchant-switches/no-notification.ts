/**
 * The dashboard's "Send notification" switch of a return, an exchange or a claim, which Medusa 2.21 drops: recorded
 * where Medusa keeps it, before the route books anything (decision 60). */
import type { MedusaNextFunction, MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { recordNoNotificationWorkflow } from "../../../workflows/record-no-notification"

function saysNoNotification(req: MedusaRequest): boolean {
  const body = req.body as { no_notification?: unknown } | undefined
  return body?.no_notification === true
}

/** `POST /admin/{returns,exchanges,claims}/:id/request` with `no_notification: true`: recorded, then the route runs. */
export function recordRequestSwitch(kind: "return" | "exchange" | "claim") {
  return async (req: MedusaRequest, _res: MedusaResponse, next: MedusaNextFunction) => {
    const id = req.params.id
    if (!id || !saysNoNotification(req)) {
      return next()
    }
    try {
      await recordNoNotificationWorkflow(req.scope).run({ input: { kind, id, no_notification: true } })
      next()
    } catch (error) {
      next(error)
    }
  }
}

/** `POST /admin/returns` with `no_notification: true`: recorded on the return the route created, before it answers. */
export function recordCreatedReturnSwitch(req: MedusaRequest, res: MedusaResponse, next: MedusaNextFunction) {
  if (!saysNoNotification(req)) {
    return next()
  }
  const json = res.json.bind(res)
  res.json = ((body: { return?: { id?: string } }) => {
    const id = body?.return?.id
    if (res.statusCode >= 300 || !id) {
      return json(body)
    }
    recordNoNotificationWorkflow(req.scope)
      .run({ input: { kind: "return", id, no_notification: true } })
      .then(
        () => json(body),
        (error: unknown) => next(error)
      )
    return res
  }) as MedusaResponse["json"]
  next()
}
