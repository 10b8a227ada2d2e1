/** An order's lastmile tracking, read every 2 seconds until it is delivered or canceled. */
import { useEffect, useState } from "react"
import type { LastmileOrderTracking } from "../../../src/storefront"
import { shopperMessage } from "../lib/messages"
import type { Shop } from "../lib/shop"

const POLL_MS = 2000

export interface OrderTrackingState {
  tracking: LastmileOrderTracking | null
  /** Set while the last read failed; the previous tracking is kept and reading goes on. */
  error: string | null
  loaded: boolean
}

export function useOrderTracking(shop: Shop, orderId: string): OrderTrackingState {
  const [state, setState] = useState<OrderTrackingState>({ tracking: null, error: null, loaded: false })
  useEffect(() => {
    let stopped = false
    let timer: ReturnType<typeof setTimeout> | undefined
    const read = async () => {
      try {
        const tracking = await shop.retrieveTracking(orderId)
        if (stopped) {
          return
        }
        setState({ tracking, error: null, loaded: true })
        if (tracking?.status === "delivered" || tracking?.status === "canceled") {
          return
        }
      } catch (error) {
        if (stopped) {
          return
        }
        setState((previous) => ({ ...previous, error: shopperMessage(error), loaded: true }))
      }
      timer = setTimeout(() => void read(), POLL_MS)
    }
    void read()
    return () => {
      stopped = true
      clearTimeout(timer)
    }
  }, [shop, orderId])
  return state
}
