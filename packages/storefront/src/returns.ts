/**
 * The lastmile return option among an order's return options; a return requested with it is booked at the service
 * by the plugin (a courier collects from the order's address).
 */
import { isLastmileProviderId } from "./choices.js"

/** The fulfillment option id the plugin's return option carries as its `data.id`. */
export const LASTMILE_RETURN_OPTION_ID = "lastmile-return"

/** Whether one of Medusa's shipping options is the lastmile return option. */
export function isLastmileReturnOption(option: {
  provider_id?: string | null
  data?: Record<string, unknown> | null
}): boolean {
  return isLastmileProviderId(option.provider_id) && option.data?.id === LASTMILE_RETURN_OPTION_ID
}
