import { defineMiddlewares, validateAndTransformBody } from "@medusajs/framework/http"
import { CancelTask, CollectionSwitch, ExtendCollection, HandOver, SendTest } from "./admin/lastmile/validators"
import { StockLocationPickup } from "./admin/lastmile/validators"
import { LinkLocation, SetupShipping } from "./admin/lastmile/validators"
import { hideWebhookToken, refuseUnreadableToken } from "./hooks/lastmile/hide-token"
import { refuseUnreadableIds, undecodablePathErrorHandler } from "./admin/lastmile/path-ids"
import { recordCreatedReturnSwitch, recordRequestSwitch } from "./admin/merchant-switches/no-notification"

export default defineMiddlewares({
  errorHandler: undecodablePathErrorHandler,
  routes: [
    {
      // Every method and every path below the webhook's (a pattern, with no
      // parameter Express would have to decode): the token never reaches the
      // access log, an undecodable token is a 401, and no body is parsed. The
      // route reads its own body: the token and the signature header are
      // checked before a byte is read, the size is capped, and the HMAC needs
      // the exact raw bytes.
      matcher: /^\/hooks\/lastmile(?=\/|$)/,
      bodyParser: false,
      middlewares: [hideWebhookToken, refuseUnreadableToken],
    },
    {
      // An id in the plugin's admin paths that no id can be (NUL, a control character) is a 400, before a
      // route hands it to PostgreSQL. (A path that is not valid percent-encoding fails earlier, in Medusa's
      // own "/admin*" middleware: the error handler below answers that.)
      matcher: /^\/admin\/lastmile(?=\/|$)/,
      middlewares: [refuseUnreadableIds],
    },
    {
      // The same for the plugin's store paths (an order's booking), which a publishable key alone reaches.
      matcher: /^\/store\/lastmile(?=\/|$)/,
      middlewares: [refuseUnreadableIds],
    },
    // The merchant's "Send notification" switch, which Medusa 2.21 drops: recorded for the plugin's messages.
    ...(["return", "exchange", "claim"] as const).map((kind) => ({
      matcher: `/admin/${kind}s/:id/request`,
      methods: ["POST" as const],
      middlewares: [recordRequestSwitch(kind)],
    })),
    { matcher: "/admin/returns", methods: ["POST"], middlewares: [recordCreatedReturnSwitch] },
    {
      matcher: "/admin/lastmile/locations/:id/collection",
      methods: ["POST"],
      middlewares: [validateAndTransformBody(CollectionSwitch)],
    },
    {
      matcher: "/admin/lastmile/tasks/:id/cancel",
      methods: ["POST"],
      middlewares: [validateAndTransformBody(CancelTask)],
    },
    {
      matcher: "/admin/lastmile/tasks/:id/hand-over",
      methods: ["POST"],
      middlewares: [validateAndTransformBody(HandOver)],
    },
    {
      matcher: "/admin/lastmile/tasks/:id/extend",
      methods: ["POST"],
      middlewares: [validateAndTransformBody(ExtendCollection)],
    },
    {
      matcher: "/admin/lastmile/stock-locations/:id/pickup",
      methods: ["POST"],
      middlewares: [validateAndTransformBody(StockLocationPickup)],
    },
    {
      matcher: "/admin/lastmile/locations/:id/link",
      methods: ["POST"],
      middlewares: [validateAndTransformBody(LinkLocation)],
    },
    {
      matcher: "/admin/lastmile/notifications/test",
      methods: ["POST"],
      middlewares: [validateAndTransformBody(SendTest)],
    },
    {
      matcher: "/admin/lastmile/setup",
      methods: ["POST"],
      middlewares: [validateAndTransformBody(SetupShipping)],
    },
  ],
})
