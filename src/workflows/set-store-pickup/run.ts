/**
 * Runs the store's pickup change for the admin's route (decision 65); a ready collection whose hold would end on a
 * date the merchant now closes is held past it, to the next open day's closing, and its shopper told.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { type SetStorePickupWorkflowInput, setStorePickupWorkflow } from "./index"
import { runRefusal } from "../run-refusal"
import { extendCollection } from "../extend-collection/run"
import { storeDaysOf } from "../extend-collection/steps/read-store-days"
import { TaskRowsService } from "../../modules/lastmile/services/task-rows"
import { endsOnClosedDate, readCollectionRecord } from "../../lib/collection/collection-hold"
import { storeCalendarOf } from "../../lib/collection/readiness"
import { taskModeOf } from "../../lib/notifications/due-notifications"
import { errorMessage } from "../../lib/support/error-message"

export async function setStorePickup(
  container: MedusaContainer,
  input: SetStorePickupWorkflowInput,
  actorId: string | null
) {
  const { result, errors } = await setStorePickupWorkflow(container).run({ input, throwOnError: false })
  if (errors.length) {
    throw runRefusal(errors[0], "The store's pickup settings were not saved")
  }
  if (input.closed_dates !== undefined) {
    await holdPastClosures(container, input.stock_location_id, actorId)
  }
  return result
}

async function holdPastClosures(container: MedusaContainer, stockLocationId: string, actorId: string | null) {
  const rows = await TaskRowsService.of(container).list({
    stock_location_id: stockLocationId,
    kind: "delivery",
    tracking_state: ["awaiting", "shipped"],
  })
  const collections = rows.filter((r) => taskModeOf(r) === "collection")
  if (!collections.length) {
    return
  }
  // One store: its days read once for all its collections.
  const days = await storeDaysOf(container, collections[0])
  const calendar = storeCalendarOf(days.operating_hours, days.closed_dates, days.fallback_zone)
  const now = new Date()
  for (const row of collections) {
    const state = { status: row.status, tracking_state: row.tracking_state, cancelled: !!row.cancellation }
    if (!endsOnClosedDate(state, readCollectionRecord(row.collection), calendar.closedDates, calendar.timeZone, now)) {
      continue
    }
    // One open day past the closed date it ends on: the next open day's closing (closed days are not counted).
    await extendCollection(container, row.id, 1, actorId).catch((error: unknown) =>
      container
        .resolve(ContainerRegistrationKeys.LOGGER)
        .warn(`lastmile: the hold of task ${row.id} ends on a closed date and was not moved: ${errorMessage(error)}`)
    )
  }
}
