import { defineMiddlewares, validateAndTransformBody } from "@medusajs/framework/http"
import { CollectionSwitch } from "./admin/lastmile/validators"

export default defineMiddlewares({
  routes: [
    {
      // The webhook reads its own body: the token is checked before a byte is
      // read, the size is capped, and the HMAC needs the exact raw bytes.
      matcher: "/hooks/lastmile/:token",
      methods: ["POST"],
      bodyParser: false,
    },
    {
      matcher: "/admin/lastmile/locations/:id/collection",
      methods: ["POST"],
      middlewares: [validateAndTransformBody(CollectionSwitch)],
    },
  ],
})
