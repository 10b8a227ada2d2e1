/**
 * medusa-plugin-lastmile-storefront: typed helpers over the app's own `@medusajs/js-sdk` and the plugin's store JSON;
 * it loads nothing at runtime but its own files (decision 34).
 */
export {
  type LastmileChoice,
  type LastmileChoiceBase,
  type LastmileChoiceRef,
  type LastmileCollectionChoice,
  type LastmileDeliveryChoice,
  type LastmileUnavailableOption,
  LASTMILE_PROVIDER_ID,
  choiceKey,
} from "./choices.js"
export {
  type LastmileChosenMethod,
  type LastmileChosenMethodText,
  type LastmileShippingMethodLike,
  describeChosenMethod,
  readChosenMethod,
} from "./chosen-method.js"
export {
  type LastmileChosenRef,
  type LastmileLogger,
  type LastmileRatesOptions,
  type LastmileStorefront,
  type LastmileStorefrontOptions,
  createLastmileStorefront,
} from "./client.js"
export {
  type LastmileCollectionCodeText,
  COLLECTION_CODE_TEXT,
  describeCollectionCode,
  spellOut,
} from "./collection-code.js"
export type {
  LastmileBookingState,
  LastmileCollectionView,
  LastmileDeliveryRate,
  LastmileFulfillmentData,
  LastmileInputField,
  LastmileLostChoice,
  LastmileOptionRate,
  LastmileOrderBookingResponse,
  LastmileRateDetails,
  LastmileRatesResponse,
  LastmileShippingMethodData,
  LastmileShopperStep,
  LastmileStoreView,
  LastmileWindow,
} from "./contract.js"
export {
  type LastmileDeliveryStep,
  type LastmileDeliveryStepOptions,
  ESTIMATE_NOTE,
  KEPT_NOTE,
  chosenUnavailableText,
  isLastmileShippingOption,
  selectedChoiceKey,
  toDeliveryStep,
} from "./delivery-step.js"
export {
  type LastmileFailureReason,
  LastmileStorefrontError,
  UNAVAILABLE_MESSAGE,
  UNREACHABLE_MESSAGE,
  toStorefrontError,
} from "./errors.js"
export {
  type LastmileFormatOptions,
  formatAmount,
  formatCo2Savings,
  formatCollectBy,
  formatDistance,
  formatWindow,
} from "./format.js"
export {
  type LastmileGeolocationLike,
  type LastmilePosition,
  type LastmilePositionOptions,
  POSITION_DECIMALS,
  nearParam,
  requestShopperPosition,
  roundPosition,
} from "./position.js"
export { LASTMILE_RETURN_OPTION_ID, isLastmileReturnOption } from "./returns.js"
export { safeHttpUrl } from "./safe-url.js"
export { formatStoreAddress, readStoreAddress, storeAddressUnlessIn } from "./store-address.js"
export {
  type LastmileStoreList,
  type LastmileStoreListOptions,
  NEAREST_STORES_SHOWN,
  listStores,
} from "./store-list.js"
export {
  type LastmileCollectionDetails,
  type LastmileOrderTracking,
  type LastmileTrackingStatus,
  readOrderTracking,
} from "./tracking.js"
export {
  type LastmilePendingState,
  type LastmileTrackingLink,
  type LastmileTrackingText,
  type LastmileTrackingTextOptions,
  EMAIL_WHEN_BOOKED_TEXT,
  LASTMILE_COLLECTION_TEXT,
  LASTMILE_PENDING_TEXT,
  LASTMILE_STATUS_TEXT,
  LASTMILE_STEP_TEXT,
  describeOrderTracking,
  pendingStateOf,
} from "./tracking-text.js"
export {
  type LastmileReasonGroup,
  type LastmileShopperAction,
  type LastmileStepVerdict,
  type LastmileUnavailableSummary,
  type LastmileVerdictKind,
  LASTMILE_ACTION_TEXT,
  LIVE_PRICES_UNAVAILABLE_TEXT,
  NONE_AVAILABLE_TEXT,
  NOTHING_OFFERED_TEXT,
  OUTAGE_TEXT,
  SOME_UNAVAILABLE_TEXT,
  actionFor,
  summariseUnavailable,
} from "./unavailable-reasons.js"
export { type LastmileWaitOptions, type LastmileWaitResult, isSettled, waitForTracking } from "./wait.js"
export type {
  LastmileCartLike,
  LastmileCartShippingMethod,
  LastmileDateLike,
  LastmileFetchInit,
  LastmileOrderLike,
  LastmileRequestOptions,
  LastmileSdk,
  LastmileStoreAddress,
} from "./types.js"
export {
  DELIVERY_NOTE_MAX_LENGTH,
  DELIVERY_NOTE_TEXT,
  cleanDeliveryNote,
  deliveryNoteCounterText,
  deliveryNoteLength,
  deliveryNoteProblem,
} from "./delivery-note.js"
export { type LastmileSpokenChoice, formatSpokenWindow, spokenChoiceText, spokenOfferText } from "./spoken-text.js"
