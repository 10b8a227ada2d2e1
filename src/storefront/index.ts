/**
 * `medusa-plugin-lastmile/storefront`: typed helpers for a storefront over
 * `@medusajs/js-sdk`, and the JSON types of the plugin's store route. It runs
 * in browsers and in Next.js servers alike, so it loads nothing at runtime:
 * not js-sdk (the app passes its own instance), not React, not Medusa's
 * server packages.
 */
export { type LastmileStorefront, createLastmileStorefront } from "./client"
export {
  type LastmileChoice,
  type LastmileChoiceRef,
  type LastmileCollectionChoice,
  type LastmileDeliveryChoice,
  type LastmileDeliveryStep,
  type LastmileDeliveryStepOptions,
  type LastmileUnavailableOption,
  ESTIMATE_NOTE,
  KEPT_NOTE,
  LASTMILE_PROVIDER_ID,
  choiceKey,
  isLastmileShippingOption,
  selectedChoiceKey,
  toDeliveryStep,
} from "./delivery-step"
export { LastmileStorefrontError, UNREACHABLE_MESSAGE, toStorefrontError } from "./errors"
export { type LastmileFormatOptions, formatAmount, formatCo2Savings, formatWindow } from "./format"
export { LASTMILE_RETURN_OPTION_ID, isLastmileReturnOption } from "./returns"
export { formatStoreAddress, readStoreAddress, storeAddressUnlessIn } from "./store-address"
export {
  type LastmileCollectionDetails,
  type LastmileOrderTracking,
  type LastmileTrackingStatus,
  readOrderTracking,
} from "./tracking"
export {
  type LastmileTrackingLink,
  type LastmileTrackingText,
  LASTMILE_STATUS_TEXT,
  describeOrderTracking,
} from "./tracking-text"
export {
  type LastmileReasonGroup,
  type LastmileShopperAction,
  type LastmileStepVerdict,
  type LastmileUnavailableSummary,
  type LastmileVerdictKind,
  LASTMILE_ACTION_TEXT,
  NONE_AVAILABLE_TEXT,
  NOTHING_OFFERED_TEXT,
  SOME_UNAVAILABLE_TEXT,
  actionFor,
  summariseUnavailable,
} from "./unavailable-reasons"
export type {
  LastmileCartLike,
  LastmileCartShippingMethod,
  LastmileDateLike,
  LastmileDeliveryRate,
  LastmileFetchInit,
  LastmileOptionRate,
  LastmileOrderLike,
  LastmileRatesResponse,
  LastmileRequestOptions,
  LastmileSdk,
  LastmileStoreAddress,
  LastmileWindow,
} from "./types"
