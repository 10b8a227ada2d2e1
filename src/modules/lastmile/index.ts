import { Module } from "@medusajs/framework/utils"
import { LastmileModuleService } from "./service"

export const LASTMILE_MODULE = "lastmile"

export default Module(LASTMILE_MODULE, { service: LastmileModuleService })
