import { CheckCircleSolid, CircleDottedLine } from "@medusajs/icons"
import { Badge, Heading, Text } from "@medusajs/ui"
import {
  type LastmileOrderTracking,
  type LastmilePendingState,
  type LastmileShopperStep,
  type LastmileTrackingStatus,
  type LastmileTrackingText,
  describeOrderTracking,
  pendingStateOf,
} from "medusa-plugin-lastmile-storefront"
import { CollectionPickup } from "./collection-pickup"
import { useOrderTracking } from "../hooks/use-order-tracking"
import { DISPLAY, type Shop } from "../lib/shop"

const STAGES: Record<LastmileOrderTracking["kind"], string[]> = {
  delivery: ["Order placed", "Booked with the courier", "On its way", "Delivered"],
  collection: ["Order placed", "Booked for collection", "On its way to the store", "Collected"],
}

const REACHED: Record<LastmileTrackingStatus, number> = { pending: 0, booked: 1, shipped: 2, delivered: 3, canceled: 0 }

const BADGE_COLOR: Record<LastmileTrackingStatus, "orange" | "blue" | "purple" | "green" | "red"> = {
  pending: "orange",
  booked: "blue",
  shipped: "purple",
  delivered: "green",
  canceled: "red",
}

const BADGE_TEXT: Record<LastmileOrderTracking["kind"], Record<LastmileTrackingStatus, string>> = {
  delivery: {
    pending: "Booking…",
    booked: "Booked",
    shipped: "On its way",
    delivered: "Delivered",
    canceled: "Canceled",
  },
  collection: {
    pending: "Arranging…",
    booked: "Booked",
    shipped: "On its way to the store",
    delivered: "Collected",
    canceled: "Canceled",
  },
}

/** A booked order's step once the service reported one: "shipped" alone cannot tell these apart. */
const STEP_BADGE: Record<LastmileShopperStep, { text: string; color: "purple" | "red" | "green"; stage: string }> = {
  out_for_delivery: { text: "Out for delivery", color: "purple", stage: "Out for delivery" },
  problem: { text: "Problem reported", color: "red", stage: "On its way" },
  ready_for_collection: { text: "Ready to collect", color: "green", stage: "Ready to collect" },
}

/** A booking not made yet, by where it stands: the badge says whether it is under way or waits for the shop. */
const PENDING_BADGE: Record<LastmilePendingState, { text: string; color: "orange" | "red" | "grey" }> = {
  not_started: { text: "Booking…", color: "orange" },
  booking: { text: "Booking…", color: "orange" },
  retrying: { text: "Retrying", color: "orange" },
  needs_attention: { text: "Waiting for the shop", color: "red" },
  books_on_fulfillment: { text: "Not sent yet", color: "grey" },
}

/**
 * The order's delivery or collection as the store API shows it, in the
 * package's words (`describeOrderTracking`), followed as it moves
 * (`useOrderTracking`). A delivery is named by the rate chosen; a collection by its store,
 * with the store's address and when the order is ready there.
 */
export function TrackingPanel({ shop, orderId }: { shop: Shop; orderId: string }) {
  const { tracking, error, loaded } = useOrderTracking(shop, orderId)
  if (!loaded) {
    return <Text className="text-ui-fg-subtle">Looking up your delivery…</Text>
  }
  if (!tracking) {
    return <Text className="text-ui-fg-subtle">{error ?? "This order has no lastmile delivery."}</Text>
  }
  const text = describeOrderTracking(tracking, DISPLAY)
  const pending = tracking.status === "pending" ? PENDING_BADGE[pendingStateOf(tracking)] : null
  const badge = pending ?? (tracking.step ? STEP_BADGE[tracking.step] : null)
  return (
    <div
      className="flex flex-col gap-y-4"
      data-testid="tracking"
      data-status={tracking.status}
      data-booking={tracking.booking ?? ""}
      data-kind={tracking.kind}
      data-step={tracking.step ?? ""}
    >
      <Heading level="h2">{text.heading}</Heading>
      <div className="flex items-start justify-between gap-x-2">
        <div className="flex flex-col">
          <Text weight="plus" data-testid="tracking-title">
            {text.title}
          </Text>
          <ChoiceDetails text={text} />
        </div>
        <Badge
          color={badge?.color ?? BADGE_COLOR[tracking.status]}
          className="shrink-0 whitespace-nowrap"
          data-testid="tracking-status"
        >
          {badge?.text ?? BADGE_TEXT[tracking.kind][tracking.status]}
        </Badge>
      </div>
      {/* Said again by a screen reader as the order moves (booked, out for delivery, delivered). */}
      <Text size="small" role="status" data-testid="tracking-status-text">
        {text.statusText}
      </Text>
      {tracking.kind === "collection" && <CollectionPickup text={text} />}
      {tracking.status !== "canceled" && <TrackingStages tracking={tracking} />}
      <TrackingLink text={text} />
      {error && (
        <Text size="small" className="text-ui-fg-error">
          {error} Trying again…
        </Text>
      )}
    </div>
  )
}

/** A delivery's window and rate text; a collection's store address, readiness and what to bring. */
function ChoiceDetails({ text }: { text: LastmileTrackingText }) {
  const lines: [string, string | null][] = [
    ["tracking-window", text.windowText],
    ["tracking-details", text.details],
    ["collection-address", text.storeAddress],
    ["collection-readiness", text.readiness],
    ["collection-bring", text.bring],
  ]
  return (
    <>
      {lines.map(([testId, line]) =>
        line ? (
          <Text key={testId} size="small" className="text-ui-fg-subtle" data-testid={testId}>
            {line}
          </Text>
        ) : null
      )}
    </>
  )
}

function TrackingStages({ tracking }: { tracking: LastmileOrderTracking }) {
  // A collection ready at the store is never marked shipped in Medusa: its step says it reached the store.
  const reached =
    tracking.step === "ready_for_collection" ? Math.max(REACHED[tracking.status], 2) : REACHED[tracking.status]
  // The third stage is named by the step the service reported, once it did ("Ready to collect").
  const stages = STAGES[tracking.kind].map((stage, index) =>
    index === 2 && tracking.step ? STEP_BADGE[tracking.step].stage : stage
  )
  return (
    <ol className="flex flex-col gap-y-2" data-testid="tracking-stages">
      {stages.map((stage, index) => (
        <li key={stage} className="flex items-center gap-x-2" data-reached={index <= reached}>
          {index <= reached ? (
            <CheckCircleSolid className="text-ui-tag-green-icon" />
          ) : (
            <CircleDottedLine className="text-ui-fg-muted" />
          )}
          <Text size="small" className={index <= reached ? "text-ui-fg-base" : "text-ui-fg-muted"}>
            {stage}
            <span className="sr-only">{index <= reached ? ": done" : ": to come"}</span>
          </Text>
        </li>
      ))}
    </ol>
  )
}

/** The service's tracking page only when it gave one (a collection often has none); the code once there is one. */
function TrackingLink({ text }: { text: LastmileTrackingText }) {
  if (!text.link && !text.codeText) {
    return null
  }
  return (
    <Text size="small">
      {text.codeText}
      {text.link && text.codeText && ": "}
      {text.link && (
        <a
          href={text.link.href}
          target="_blank"
          rel="noreferrer"
          className="text-ui-fg-interactive hover:text-ui-fg-interactive-hover"
          data-testid="tracking-link"
        >
          {text.link.text}
        </a>
      )}
    </Text>
  )
}
