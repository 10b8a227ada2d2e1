/** The plugin's module name (a fixed public contract): the key its service is registered under in the app's container. */
import type { MedusaContainer } from "@medusajs/framework/types"

export const LASTMILE_MODULE = "lastmile"

/** What a job's service is found in: the app's container, a request's scope, a step's container. */
export type ContainerLike = Pick<MedusaContainer, "resolve">
