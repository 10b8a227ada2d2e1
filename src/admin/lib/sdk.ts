import Medusa from "@medusajs/js-sdk"

// The admin is served by the same Medusa server: same origin, session auth.
export const sdk = new Medusa({ baseUrl: "/", auth: { type: "session" } })

export type {
  Check,
  LastmileOverview as Overview,
  LocationView,
  StockLocationLastmileView,
  TaskView,
} from "../../lib/lastmile/admin-api"
