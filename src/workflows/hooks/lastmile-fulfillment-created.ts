/**
 * Books every lastmile fulfillment Medusa creates, whoever creates it (the
 * plugin's own run, the dashboard, a host app), inside the workflow that
 * creates it: a refusal undoes the fulfillment with the reason
 * (ARCHITECTURE.md, decision 19). The provider cannot do this itself: it
 * cannot read the order's other modules (the dispatch location, the
 * replacement's exchange, the task rows).
 *
 * Medusa allows one handler per hook: the host app cannot also consume
 * `createOrderFulfillmentWorkflow`'s `fulfillmentCreated` hook (the README says so).
 */
import { createOrderFulfillmentWorkflow } from "@medusajs/medusa/core-flows"
import { bookFulfillment } from "../book-delivery/run"
import { readBookingAdditionalData } from "../../lib/contracts/plugin-data"

createOrderFulfillmentWorkflow.hooks.fulfillmentCreated(async ({ fulfillment, additional_data }, { container }) => {
  await bookFulfillment(container, fulfillment.id, readBookingAdditionalData(additional_data?.lastmile))
})
