// The starter's `@lib/config`: its js-sdk instance.
import Medusa from "@medusajs/js-sdk"

export declare const sdk: Medusa
