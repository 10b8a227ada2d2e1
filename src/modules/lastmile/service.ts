/**
 * The plugin's module's face (decision 24): the models' generated CRUD, each job's service of `services/` (read with
 * `XService.of(container)`), and the state's life: said at boot, closed at shutdown.
 */
import type { Logger } from "@medusajs/framework/types"
import { MedusaService } from "@medusajs/framework/utils"
import { LastmileTask } from "./models/lastmile-task"
import { LastmileWebhookEvent } from "./models/lastmile-webhook-event"
import { LastmileOfferCount } from "./models/lastmile-offer-count"
import type { TaskRowsService } from "./services/task-rows"
import type { WebhookEventsService } from "./services/webhook-events"
import type { PluginSettingsService } from "./services/plugin-settings"
import type { ServiceConnectionService } from "./services/service-connection"
import type { CheckoutAnswersService } from "./services/checkout-answers"
import type { TrackingRunsService } from "./services/tracking-runs"
import type { OfferCountingService } from "./services/offer-counting"
import type { ResolvedPluginOptions } from "../../lib/options/plugin-options"

type InjectedDependencies = {
  logger: Logger
  taskRowsService: TaskRowsService
  webhookEventsService: WebhookEventsService
  pluginSettingsService: PluginSettingsService
  serviceConnectionService: ServiceConnectionService
  checkoutAnswersService: CheckoutAnswersService
  trackingRunsService: TrackingRunsService
  offerCountingService: OfferCountingService
}

export class LastmileModuleService extends MedusaService({ LastmileTask, LastmileWebhookEvent, LastmileOfferCount }) {
  readonly tasks: TaskRowsService
  readonly webhookEvents: WebhookEventsService
  readonly settings: PluginSettingsService
  readonly connection: ServiceConnectionService
  readonly checkout: CheckoutAnswersService
  readonly tracking: TrackingRunsService
  readonly offers: OfferCountingService
  protected readonly logger_: Logger

  constructor(container: InjectedDependencies) {
    // eslint-disable-next-line prefer-rest-params
    super(...arguments)
    this.logger_ = container.logger
    // The settings first: they validate the plugin's options, so bad options stop the app here.
    this.settings = container.pluginSettingsService
    this.tasks = container.taskRowsService
    this.webhookEvents = container.webhookEventsService
    this.connection = container.serviceConnectionService
    this.checkout = container.checkoutAnswersService
    this.tracking = container.trackingRunsService
    this.offers = container.offerCountingService
  }

  __hooks = {
    // Said once at boot: a channel the plugin sends on with no provider behind it sends nothing.
    onApplicationStart: async (): Promise<void> => {
      this.settings.missingChannelWarnings().forEach((warning) => this.logger_.warn(warning))
    },
    onApplicationShutdown: async (): Promise<void> => {
      await this.tracking.close()
      this.checkout.close()
      await this.offers.close()
      await this.connection.close()
    },
  }

  /** The plugin's options, validated (for a host app; the plugin's own code reads `PluginSettingsService`). */
  getPluginOptions(): ResolvedPluginOptions {
    return this.settings.options
  }
}

export default LastmileModuleService
