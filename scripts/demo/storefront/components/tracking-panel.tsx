import { CheckCircleSolid, CircleDottedLine } from "@medusajs/icons"
import { Badge, Heading, Text } from "@medusajs/ui"
import { type LastmileOrderTracking, type LastmileTrackingStatus, formatWindow } from "../../../../src/storefront"
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

function badgeText({ status, kind }: LastmileOrderTracking): string {
  switch (status) {
    case "pending":
      return "Booking…"
    case "booked":
      return "Booked"
    case "shipped":
      return "On its way"
    case "delivered":
      return kind === "collection" ? "Collected" : "Delivered"
    case "canceled":
      return "Canceled"
  }
}

/** The order's delivery or collection as the store API shows it, read again every 2 seconds as it moves. */
export function TrackingPanel({ shop, orderId }: { shop: Shop; orderId: string }) {
  const { tracking, error, loaded } = useOrderTracking(shop, orderId)
  if (!loaded) {
    return <Text className="text-ui-fg-subtle">Looking up your delivery…</Text>
  }
  if (!tracking) {
    return <Text className="text-ui-fg-subtle">{error ?? "This order has no lastmile delivery."}</Text>
  }
  const window = formatWindow(tracking.window, DISPLAY)
  return (
    <div className="flex flex-col gap-y-4" data-testid="tracking" data-status={tracking.status}>
      <Heading level="h2">{tracking.kind === "collection" ? "Your collection" : "Your delivery"}</Heading>
      <div className="flex items-center justify-between gap-x-2">
        <div className="flex flex-col">
          <Text weight="plus">
            {tracking.methodName ?? (tracking.kind === "collection" ? "Collection" : "Delivery")}
          </Text>
          {window && (
            <Text size="small" className="text-ui-fg-subtle">
              {window}
            </Text>
          )}
        </div>
        <Badge color={BADGE_COLOR[tracking.status]} data-testid="tracking-status">
          {badgeText(tracking)}
        </Badge>
      </div>
      {tracking.description && (
        <Text size="small" className="text-ui-fg-subtle">
          {tracking.description}
        </Text>
      )}
      <TrackingStages tracking={tracking} />
      <TrackingLink tracking={tracking} />
      {error && (
        <Text size="small" className="text-ui-fg-error">
          {error} Trying again…
        </Text>
      )}
    </div>
  )
}

function TrackingStages({ tracking }: { tracking: LastmileOrderTracking }) {
  if (tracking.status === "canceled") {
    return <Text size="small">This delivery was canceled. Contact the shop if you did not expect this.</Text>
  }
  const reached = REACHED[tracking.status]
  return (
    <ol className="flex flex-col gap-y-2" data-testid="tracking-stages">
      {STAGES[tracking.kind].map((stage, index) => (
        <li key={stage} className="flex items-center gap-x-2" data-reached={index <= reached}>
          {index <= reached ? (
            <CheckCircleSolid className="text-ui-tag-green-icon" />
          ) : (
            <CircleDottedLine className="text-ui-fg-muted" />
          )}
          <Text size="small" className={index <= reached ? "text-ui-fg-base" : "text-ui-fg-muted"}>
            {stage}
          </Text>
        </li>
      ))}
    </ol>
  )
}

function TrackingLink({ tracking }: { tracking: LastmileOrderTracking }) {
  if (tracking.trackingUrl) {
    return (
      <Text size="small">
        Tracking number {tracking.trackingNumber ?? "—"}:{" "}
        <a
          href={tracking.trackingUrl}
          target="_blank"
          rel="noreferrer"
          className="text-ui-fg-interactive hover:text-ui-fg-interactive-hover"
          data-testid="tracking-link"
        >
          follow it live
        </a>
      </Text>
    )
  }
  if (tracking.trackingNumber) {
    return <Text size="small">Tracking number {tracking.trackingNumber}</Text>
  }
  return (
    <Text size="small" className="text-ui-fg-subtle">
      Your tracking link appears here as soon as the courier has the booking, usually within seconds.
    </Text>
  )
}
