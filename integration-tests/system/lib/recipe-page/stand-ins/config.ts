/** The starter's `@lib/config` at run time in the recipe's test page: a js-sdk instance for the backend in the page's URL. */
import Medusa from "@medusajs/js-sdk"

const params = new URLSearchParams(window.location.search)

export const PAGE_CONFIG = {
  medusaUrl: params.get("medusa") ?? "http://localhost:9000",
  publishableKey: params.get("key") ?? "",
  regionId: params.get("region") ?? "",
}

export const sdk = new Medusa({ baseUrl: PAGE_CONFIG.medusaUrl, publishableKey: PAGE_CONFIG.publishableKey })
