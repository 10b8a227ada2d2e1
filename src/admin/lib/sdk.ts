import Medusa from "@medusajs/js-sdk"
import type { QueryClient } from "@tanstack/react-query"

// The admin is served by the same Medusa server: same origin, session auth.
export const sdk = new Medusa({ baseUrl: "/", auth: { type: "session" } })

/** Settings → Lastmile's overview (`GET /admin/lastmile`). */
export const overviewQueryKey = ["lastmile", "overview"]

/** The location widget's view of one stock location: this key and the location's id. */
export const stockLocationQueryKey = ["lastmile", "stock-location"]

/**
 * After a link, unlink, creation, collection switch or setup: the views it
 * changes (the overview, and the location widgets the dashboard keeps for
 * 90 s), not the page's other lists.
 */
export function refreshLocationViews(client: QueryClient): void {
  client.invalidateQueries({ queryKey: overviewQueryKey })
  client.invalidateQueries({ queryKey: stockLocationQueryKey })
}

/** The HTTP status a failed request answered (the SDK's `FetchError`), or undefined when it never got an answer. */
export function statusOf(error: unknown): number | undefined {
  const status = typeof error === "object" && error !== null ? (error as { status?: unknown }).status : undefined
  return typeof status === "number" ? status : undefined
}

export type {
  Check,
  CollectionSwitchResult,
  DeliveryNoteView,
  ExtendCollectionRequest,
  HandOverRequest,
  LastmileOverview as Overview,
  LocationMappingResult,
  LocationView,
  NotificationTestReport,
  NotificationsOverview,
  OrderTasksResponse,
  SetupReport,
  SetupRequest,
  StockLocationLastmileView,
  StockLocationPickup,
  StockLocationPickupRequest,
  StockLocationSummary,
  TaskCancellation,
  TaskCollectionView,
  TaskHistoryEntry,
  TaskView,
} from "../../lib/contracts/admin-api"
