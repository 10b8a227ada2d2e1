/**
 * Books every lastmile fulfillment Medusa creates, whoever creates it (the
 * plugin's own run, the dashboard, a host app), inside the workflow that
 * creates it: a refusal undoes the fulfillment with the reason
 * (ARCHITECTURE.md, decision 19). The provider cannot do this itself: it
 * cannot read the order's other modules (the dispatch location, the
 * replacement's exchange, the task rows).
 *
 * Medusa allows one handler per hook: where the host app handles
 * `createOrderFulfillmentWorkflow`'s `fulfillmentCreated` itself, the boot
 * log says that nothing is booked (the README's Install).
 */
import { logger } from "@medusajs/framework/logger"
import { createOrderFulfillmentWorkflow } from "@medusajs/medusa/core-flows"
import { bookFulfillment } from "../book-delivery/run"
import { readBookingAdditionalData } from "../../lib/contracts/plugin-data"
import { claimHook } from "../../lib/support/claim-hook"

claimHook(
  {
    workflow: "createOrderFulfillmentWorkflow",
    hook: "fulfillmentCreated",
    without: "no lastmile fulfillment is booked with the service; remove your handler of this hook",
  },
  () =>
    createOrderFulfillmentWorkflow.hooks.fulfillmentCreated(async ({ fulfillment, additional_data }, { container }) => {
      await bookFulfillment(container, fulfillment.id, readBookingAdditionalData(additional_data?.lastmile))
    }),
  logger
)
