/**
 * An order's lastmile tracking, followed with the storefront package's `waitForTracking` (at most every 5 s) until it
 * settles; nothing is read while the tab is hidden, and leaving the page stops it.
 */
import { useEffect, useState } from "react"
import { type LastmileOrderTracking, waitForTracking } from "medusa-plugin-lastmile-storefront"
import { shopperMessage } from "../lib/messages"
import type { Shop } from "../lib/shop"

export interface OrderTrackingState {
  tracking: LastmileOrderTracking | null
  /** Set while the last read failed; the previous tracking is kept and reading goes on (or stopped, for a fault). */
  error: string | null
  loaded: boolean
}

export function useOrderTracking(shop: Shop, orderId: string): OrderTrackingState {
  const [state, setState] = useState<OrderTrackingState>({ tracking: null, error: null, loaded: false })
  useEffect(() => {
    const page = new AbortController()
    waitForTracking(() => shop.retrieveTracking(orderId), {
      until: "done",
      maxDelayMs: 5000,
      signal: page.signal,
      onUpdate: (tracking) => setState({ tracking, error: null, loaded: true }),
      onError: (error) => setState((previous) => ({ ...previous, error: shopperMessage(error), loaded: true })),
    }).catch((error: unknown) => {
      if (!page.signal.aborted) {
        setState((previous) => ({ ...previous, error: shopperMessage(error), loaded: true }))
      }
    })
    return () => page.abort()
  }, [shop, orderId])
  return state
}
