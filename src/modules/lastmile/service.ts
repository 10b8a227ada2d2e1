import { MedusaService } from "@medusajs/framework/utils"
import { LastmileTask } from "./models/lastmile-task"
import { LastmileWebhookEvent } from "./models/lastmile-webhook-event"
import { type LastmilePluginOptions, type ResolvedPluginOptions, resolvePluginOptions } from "./plugin-options"

/**
 * Persisted lastmile tasks and webhook events (generated CRUD:
 * createLastmileTasks, listLastmileWebhookEvents, …) and the plugin's options.
 */
export class LastmileModuleService extends MedusaService({ LastmileTask, LastmileWebhookEvent }) {
  protected readonly pluginOptions_: ResolvedPluginOptions

  constructor(_container: Record<string, unknown>, options?: LastmilePluginOptions) {
    // eslint-disable-next-line prefer-rest-params
    super(...arguments)
    this.pluginOptions_ = resolvePluginOptions(options)
  }

  getPluginOptions(): ResolvedPluginOptions {
    return this.pluginOptions_
  }
}

export default LastmileModuleService
