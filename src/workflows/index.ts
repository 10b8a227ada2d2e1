/**
 * What the plugin exports under `medusa-plugin-lastmile/workflows`: its workflows with their typed inputs, the pricing
 * context hooks' helpers (decision 38), and the notifications' data type and words (decision 49).
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
export {
  type NotifyTaskWorkflowInput,
  type SendTaskNotificationsInput,
  type SentTaskNotifications,
  notifyTaskWorkflow,
  notifyTaskWorkflowId,
  sendTaskNotificationsStep,
} from "./notify-task"
export {
  type SendTestNotificationsWorkflowInput,
  sendTestNotificationsWorkflow,
  sendTestNotificationsWorkflowId,
} from "./send-test-notifications"
export {
  type RecordNoNotificationWorkflowInput,
  recordNoNotificationWorkflow,
  recordNoNotificationWorkflowId,
} from "./record-no-notification"
// The data every message carries, and its words, for a host's own templates or mailbox (README, Notifications).
export type { LastmileNotificationData, LastmileNotificationAddress } from "../lib/notifications/notification-data"
export type { LastmileNotificationEvent } from "../lib/notifications/notification-events"
export type { LastmileNotificationOptions } from "../lib/notifications/notification-options"
export { type RenderedNotification, renderNotification, renderSms } from "../lib/notifications/render-notification"
