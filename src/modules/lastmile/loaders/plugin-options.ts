/** Hands the plugin's options, as medusa-config gives them, to the module's services (the settings validate them). */
import { asValue } from "@medusajs/framework/awilix"
import type { LoaderOptions } from "@medusajs/framework/types"
import type { LastmilePluginOptions } from "../../../lib/options/plugin-options"

export default async function pluginOptionsLoader({ container, options }: LoaderOptions<LastmilePluginOptions>) {
  container.register("lastmileOptions", asValue(options))
}
