import { Module } from "@medusajs/framework/utils"
import { LastmileModuleService } from "./service"
import pluginOptionsLoader from "./loaders/plugin-options"
import { LASTMILE_MODULE } from "./module-name"

export { LASTMILE_MODULE }

export default Module(LASTMILE_MODULE, { service: LastmileModuleService, loaders: [pluginOptionsLoader] })
