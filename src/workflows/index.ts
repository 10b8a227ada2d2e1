/**
 * What the plugin exports under `medusa-plugin-lastmile/workflows`: its
 * workflows, with their typed inputs, for a host app to run or compose, and
 * the pricing-context hooks' helpers.
 */
export { lastmileOrderPricingContext, lastmilePricingContext } from "./host-pricing-additions"
export {
  type BookTaskWorkflowInput,
  type BookTaskWorkflowOutput,
  type BookingTarget,
  bookTaskWorkflow,
  bookTaskWorkflowId,
  bookingLockKey,
} from "./book-task"
export {
  type SyncTaskStatusWorkflowInput,
  type SyncTaskStatusWorkflowOutput,
  syncTaskStatusWorkflow,
  syncTaskStatusWorkflowId,
} from "./sync-task-status"
export {
  type SetupShippingOptionsWorkflowInput,
  type SetupShippingOptionsWorkflowOutput,
  setupShippingOptionsWorkflow,
  setupShippingOptionsWorkflowId,
} from "./setup-shipping-options"
export {
  type CreateLastmileStockLocationWorkflowInput,
  type LinkLastmileLocationWorkflowInput,
  type SetLastmileCollectionWorkflowInput,
  type UnlinkLastmileLocationWorkflowInput,
  createLastmileStockLocationWorkflow,
  createLastmileStockLocationWorkflowId,
  linkLastmileLocationWorkflow,
  linkLastmileLocationWorkflowId,
  setLastmileCollectionWorkflow,
  setLastmileCollectionWorkflowId,
  unlinkLastmileLocationWorkflow,
  unlinkLastmileLocationWorkflowId,
} from "./map-lastmile-locations"
