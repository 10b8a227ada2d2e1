import { defineMiddlewares, validateAndTransformBody } from "@medusajs/framework/http"
import { CancelTask, CollectionSwitch } from "./admin/lastmile/validators"
import { LinkLocation, SetupShipping } from "./admin/lastmile/validators"
import { hideWebhookToken } from "./hooks/lastmile/hide-token"

export default defineMiddlewares({
  routes: [
    {
      // The webhook reads its own body: the token is checked before a byte is
      // read, the size is capped, and the HMAC needs the exact raw bytes.
      matcher: "/hooks/lastmile/:token",
      methods: ["POST"],
      bodyParser: false,
      middlewares: [hideWebhookToken],
    },
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
      matcher: "/admin/lastmile/locations/:id/link",
      methods: ["POST"],
      middlewares: [validateAndTransformBody(LinkLocation)],
    },
    {
      matcher: "/admin/lastmile/setup",
      methods: ["POST"],
      middlewares: [validateAndTransformBody(SetupShipping)],
    },
  ],
})
