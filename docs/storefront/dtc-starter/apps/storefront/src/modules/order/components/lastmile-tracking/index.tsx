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
 * waits for the shop, which it then says. A collection is followed on until
 * it is collected: once it is ready at the store, the page shows when to
 * collect it by and the code to show at the counter, which only the booking
 * route knows (the order the page was rendered with does not carry it).
 */
export default function LastmileTracking({ initial }: { initial: LastmileOrderTracking }) {
  const [tracking, setTracking] = useState(initial)
  const { orderId } = initial
  const until = initial.kind === "collection" ? "done" : "booked"
  const settled = isSettled(initial, until)

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
      until,
      // A collection waits at the store for days: read it at most every 15 s, as a booking is.
      maxDelayMs: 15_000,
      signal: page.signal,
      onUpdate: (next) => next && setTracking(next),
    }).catch(() => {
      // The helper has logged why on the server; the page keeps what it shows.
    })
    return () => page.abort()
  }, [orderId, settled, until])

  const text = describeOrderTracking(tracking, LASTMILE_DISPLAY)
  const code = text.collectionCode
  return (
    <div
      className="flex flex-col mt-6"
      data-testid="lastmile-tracking"
      data-status={tracking.status}
      data-booking={tracking.booking ?? ""}
      data-step={tracking.step ?? ""}
    >
      <Text className="txt-medium-plus text-ui-fg-base mb-1">{text.heading}</Text>
      {[text.windowText, text.details, text.storeAddress, text.readiness, text.bring].map((line) =>
        line ? (
          <Text key={line} className="txt-medium text-ui-fg-subtle">
            {line}
          </Text>
        ) : null
      )}
      {text.instructions && (
        <Text className="txt-medium text-ui-fg-subtle" data-testid="lastmile-collection-instructions">
          From the store: {text.instructions}
        </Text>
      )}
      {/* A live region: a screen reader hears the booking, then each step, as the page updates. */}
      <Text className="txt-medium text-ui-fg-base" role="status" data-testid="lastmile-tracking-status">
        {text.statusText}
      </Text>
      {(text.collectBy || code) && (
        <dl className="flex flex-col gap-y-3 my-4 p-4 border rounded-rounded" data-testid="lastmile-collection-ready">
          {text.collectBy && (
            <div>
              <dt className="txt-medium-plus text-ui-fg-base">Collect by</dt>
              <dd className="txt-medium text-ui-fg-subtle" data-testid="lastmile-collect-by">
                {text.collectBy}
              </dd>
            </div>
          )}
          {code && (
            <div>
              <dt className="txt-medium-plus text-ui-fg-base">{code.label}</dt>
              <dd>
                {/* Large, in its two groups apart by a margin (so a copy is the code itself), selected whole by a click;
                    a screen reader hears it one character at a time instead. */}
                <span
                  className="block font-mono text-3xl font-semibold tracking-[0.2em] select-all"
                  aria-hidden="true"
                  data-testid="lastmile-collection-code"
                  data-code={code.code}
                >
                  {code.groups.map((group, index) => (
                    <span key={index} className={index ? "ml-4" : undefined}>
                      {group}
                    </span>
                  ))}
                </span>
                <span className="sr-only" data-testid="lastmile-collection-code-spoken">
                  {code.spokenText}
                </span>
                <span className="block txt-small text-ui-fg-subtle">{code.hint}</span>
              </dd>
            </div>
          )}
        </dl>
      )}
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
