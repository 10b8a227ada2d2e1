"use client"

import { getLastmileTracking } from "@lib/data/lastmile"
import { LASTMILE_DISPLAY } from "@lib/util/lastmile-display"
import { Text } from "@modules/common/components/ui"
import {
  type LastmileOrderTracking,
  LastmileStorefrontError,
  describeOrderTracking,
  isSettled,
  waitForTracking,
} from "medusa-plugin-lastmile-storefront"
import { useEffect, useState } from "react"

/**
 * The order's delivery or collection as it stands, in words that fit its
 * kind, kept up to date on the confirmation: while the booking is under way
 * the page reads it again (with a growing pause, never while the tab is
 * hidden, and no more once the page is left) until it is booked, or until it
 * waits for the shop, which it then says.
 */
export default function LastmileTracking({ initial }: { initial: LastmileOrderTracking }) {
  const [tracking, setTracking] = useState(initial)
  const { orderId } = initial
  const settled = isSettled(initial)

  useEffect(() => {
    if (settled) {
      return
    }
    const page = new AbortController()
    const read = async () => {
      const { tracking, failure } = await getLastmileTracking(orderId)
      if (failure) {
        // A server action returns its failure: thrown again here, it stops the wait unless it may pass by itself.
        throw new LastmileStorefrontError(failure.message, null, { reason: failure.reason })
      }
      return tracking
    }
    waitForTracking(read, {
      signal: page.signal,
      onUpdate: (next) => next && setTracking(next),
    }).catch(() => {
      // The helper has logged why on the server; the page keeps what it shows.
    })
    return () => page.abort()
  }, [orderId, settled])

  const text = describeOrderTracking(tracking, LASTMILE_DISPLAY)
  return (
    <div
      className="flex flex-col mt-6"
      data-testid="lastmile-tracking"
      data-status={tracking.status}
      data-booking={tracking.booking ?? ""}
    >
      <Text className="txt-medium-plus text-ui-fg-base mb-1">{text.heading}</Text>
      {[text.windowText, text.details, text.storeAddress, text.readiness, text.bring].map((line) =>
        line ? (
          <Text key={line} className="txt-medium text-ui-fg-subtle">
            {line}
          </Text>
        ) : null
      )}
      {/* A live region: a screen reader hears the booking, then each step, as the page updates. */}
      <Text className="txt-medium text-ui-fg-base" role="status" data-testid="lastmile-tracking-status">
        {text.statusText}
      </Text>
      {text.codeText && <Text className="txt-medium text-ui-fg-subtle">{text.codeText}</Text>}
      {text.link && (
        <a
          href={text.link.href}
          target="_blank"
          rel="noreferrer"
          className="txt-medium text-ui-fg-interactive"
          data-testid="lastmile-tracking-link"
        >
          {text.link.text}
        </a>
      )}
    </div>
  )
}
