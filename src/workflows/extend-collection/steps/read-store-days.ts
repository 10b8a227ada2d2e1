/** Reads the days of the store a task's collection waits at (decision 65): its closed dates and hours. Reads only. */
import type { MedusaContainer } from "@medusajs/framework/types"
import { StepResponse, createStep } from "@medusajs/framework/workflows-sdk"
import { TaskRowsService } from "../../../modules/lastmile/services/task-rows"
import { TrackingRunsService } from "../../../modules/lastmile/services/tracking-runs"
import { ServiceConnectionService } from "../../../modules/lastmile/services/service-connection"
import { PluginSettingsService } from "../../../modules/lastmile/services/plugin-settings"
import { type StoreDaysRead, readStoreDays } from "../../../lib/collection/medusa/read-store-pickup"
import { storeTimeZoneOf } from "../../../lib/options/plugin-options"

export const readStoreDaysStepId = "lastmile-read-store-days"

export const readStoreDaysStep = createStep(
  readStoreDaysStepId,
  async ({ task_row_id }: { task_row_id: string }, { container }) =>
    new StepResponse(await storeDaysOf(container, await TaskRowsService.of(container).retrieve(task_row_id)))
)

/** The store days of a task row, with the module's hours at the service and the options' zone. */
export function storeDaysOf(
  container: MedusaContainer,
  row: { stock_location_id: string | null; merchant_location_id: string | null }
): Promise<StoreDaysRead> {
  const options = PluginSettingsService.of(container).options
  const client = ServiceConnectionService.of(container).get()?.client
  return readStoreDays(container, row, {
    serviceHours: async (externalId) =>
      (await TrackingRunsService.of(container).serviceLocation(client, externalId))?.operatingHours,
    fallbackZone: storeTimeZoneOf(options),
  })
}
