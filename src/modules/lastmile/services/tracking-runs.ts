/**
 * What tracking keeps in a process (decisions 14 and 24): the coalesced syncs of each task, the webhook bells, and
 * the service's locations for a collection message's opening hours.
 */
import type { IEventBusModuleService, Logger } from "@medusajs/framework/types"
import { Modules } from "@medusajs/framework/utils"
import { RunCoalescer } from "../../../lib/support/run-coalescer"
import { ExpiringValue } from "../../../lib/support/expiring-value"
import type { SyncOutcome } from "../../../lib/tracking/task-sync"
import { type BellData, WEBHOOK_RECEIVED_EVENT, WebhookBells } from "../../../lib/tracking/webhook-bells"
import type { ServiceFulfilmentLocation } from "../../../lib/contracts/service-shapes"
import { onStoreListChanged } from "../../../lib/service-client"
import { type ContainerLike, LASTMILE_MODULE } from "../module-name"

type InjectedDependencies = {
  logger: Logger
  [Modules.EVENT_BUS]?: IEventBusModuleService
}

export class TrackingRunsService {
  /** The module's tracking runs, from the app's container. */
  static of(container: ContainerLike): TrackingRunsService {
    return container.resolve<{ tracking: TrackingRunsService }>(LASTMILE_MODULE).tracking
  }

  /** Tracking syncs of one task in this process: one running, at most one queued. */
  readonly syncRuns = new RunCoalescer<SyncOutcome>()
  readonly bells: WebhookBells
  /** The service's locations, for a collection's hours (its collect-by, its messages). */
  readonly serviceLocations = new ExpiringValue<ServiceFulfilmentLocation[]>(5 * 60_000)
  /**
   * The admin read the service's locations (taken as they are) or changed one (read again at the next need): a store's
   * new hours count from then, not five minutes later. Held as long as the service: the signal holds it weakly.
   */
  private readonly onStoresChanged_ = (locations?: ServiceFulfilmentLocation[]) =>
    locations ? this.serviceLocations.set(locations) : this.serviceLocations.clear()

  constructor({ logger, [Modules.EVENT_BUS]: bus }: InjectedDependencies) {
    onStoreListChanged(this.onStoresChanged_)
    this.bells = new WebhookBells({
      emit: async (data: BellData) => {
        if (!bus) {
          throw new Error("no event bus")
        }
        await bus.emit({ name: WEBHOOK_RECEIVED_EVENT, data })
      },
      logger,
    })
  }

  /** The service's location with this external id, from the list read at most every 5 minutes; none without a client. */
  async serviceLocation(
    client: { listFulfilmentLocations(): Promise<ServiceFulfilmentLocation[]> } | undefined,
    externalId: string
  ): Promise<ServiceFulfilmentLocation | null> {
    const locations = client ? await this.serviceLocations.get(() => client.listFulfilmentLocations()) : []
    return locations.find((l) => l.externalLocationId === externalId) ?? null
  }

  /** At shutdown: no bell rings again, and the syncs under way finish. */
  async close(): Promise<void> {
    this.bells.close()
    await Promise.allSettled(this.syncRuns.pending())
  }
}
