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
  type LastmileStoreAddress,
  type LastmileUnavailableOption,
  LASTMILE_PROVIDER_ID,
  choiceKey,
  isLastmileShippingOption,
  selectedChoiceKey,
  toDeliveryStep,
} from "./delivery-step"
export { LastmileStorefrontError, UNREACHABLE_MESSAGE, toStorefrontError } from "./errors"
export { type LastmileFormatOptions, formatAmount, formatCo2Savings, formatWindow } from "./format"
export { type LastmileOrderTracking, type LastmileTrackingStatus, readOrderTracking } from "./tracking"
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
  LastmileWindow,
} from "./types"
