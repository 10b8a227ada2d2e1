/**
 * The module's offer counting (ARCHITECTURE.md, decision 50; `../offer-counts.ts`), built from the container (the
 * store's time zone from the plugin's options, the counts announced on the event bus when there is one), and the
 * other read of an insights report: the task rows of its periods.
 */
import type { IEventBusModuleService, Logger } from "@medusajs/framework/types"
import { Modules } from "@medusajs/framework/utils"
import { OFFERS_COUNTED_EVENT, OfferCounts } from "../offer-counts"
import type { InsightTaskRow } from "../../../lib/insights/task-facts"
import { readInsightTasks } from "../insight-tasks"
import type { PluginSettingsService } from "./plugin-settings"
import { type ContainerLike, LASTMILE_MODULE } from "../module-name"

type InjectedDependencies = {
  manager: { execute(sql: string, params: unknown[]): Promise<Record<string, unknown>[]> }
  logger: Logger
  pluginSettingsService: PluginSettingsService
  [Modules.EVENT_BUS]?: IEventBusModuleService
}

export class OfferCountingService extends OfferCounts {
  /** The module's offer counts, from the app's container. */
  static of(container: ContainerLike): OfferCountingService {
    return container.resolve<{ offers: OfferCountingService }>(LASTMILE_MODULE).offers
  }

  protected readonly manager_: InjectedDependencies["manager"]

  constructor({ manager, logger, pluginSettingsService, [Modules.EVENT_BUS]: bus }: InjectedDependencies) {
    super({
      manager,
      logger,
      timeZone: pluginSettingsService.options.insights.timeZone,
      announce: bus ? (offers) => bus.emit({ name: OFFERS_COUNTED_EVENT, data: { offers } }) : undefined,
    })
    this.manager_ = manager
  }

  /** The task rows that may count in an insights report of `[from, to)` (decision 51). */
  taskRows(from: Date, to: Date): Promise<InsightTaskRow[]> {
    return readInsightTasks(this.manager_, from, to)
  }
}
