/** Read-only: a task's `fulfillment_id` reaches the fulfillment in query.graph, with no link table. */
import { defineLink } from "@medusajs/framework/utils"
import FulfillmentModule from "@medusajs/medusa/fulfillment"
import LastmileModule from "../modules/lastmile"

export default defineLink(
  { linkable: LastmileModule.linkable.lastmileTask, field: "fulfillment_id" },
  FulfillmentModule.linkable.fulfillment,
  { readOnly: true }
)
