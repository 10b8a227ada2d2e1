/** Read-only: a task's `order_id` reaches the order in query.graph, with no link table. */
import { defineLink } from "@medusajs/framework/utils"
import OrderModule from "@medusajs/medusa/order"
import LastmileModule from "../modules/lastmile"

export default defineLink(
  { linkable: LastmileModule.linkable.lastmileTask, field: "order_id", isList: true },
  OrderModule.linkable.order,
  { readOnly: true }
)
