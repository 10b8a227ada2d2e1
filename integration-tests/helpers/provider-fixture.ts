/** Unit-test fixture: the provider against the London simulator on loopback, fresh per test, and a cart's pricing context. */
import { LastmileFulfillmentProviderService } from "../../src/providers/lastmile/service"
import type { LastmileProviderOptions } from "../../src/lib/options/provider-options"
import { LastmileSimulator, alwaysOpenHours, londonLocations } from "../../packages/simulator/src"
import { ukShopperAddress } from "./service-requests"

export const silentLogger = { debug: jest.fn(), warn: jest.fn(), info: jest.fn(), error: jest.fn() }

export function useProviderAgainstSimulator(
  apiKey: string,
  options: Omit<LastmileProviderOptions, "api_key" | "base_url"> = { quote_budget_ms: 500 }
): { readonly sim: LastmileSimulator; readonly provider: LastmileFulfillmentProviderService } {
  const fixture = {} as { sim: LastmileSimulator; provider: LastmileFulfillmentProviderService }
  beforeEach(async () => {
    const locations = londonLocations(["DEMO-TEE"]).map((l) => ({ ...l, operatingHours: alwaysOpenHours() }))
    fixture.sim = new LastmileSimulator({ config: { apiKey }, locations })
    await fixture.sim.start()
    fixture.provider = new LastmileFulfillmentProviderService({ logger: silentLogger } as never, {
      api_key: apiKey,
      base_url: fixture.sim.url,
      ...options,
    })
  })
  afterEach(async () => {
    await fixture.sim.stop()
  })
  return fixture
}

/** A cart of one DEMO-TEE for Ada in London, priced from the warehouse or the given store. */
export function cartContext(
  overrides: Record<string, unknown> = {},
  store?: { id: string; externalId?: string }
): never {
  return {
    id: "cart_1",
    currency_code: "gbp",
    items: [{ variant_id: "variant_tee", variant_sku: "DEMO-TEE", quantity: 1 }],
    shipping_address: ukShopperAddress,
    from_location: {
      id: store?.id ?? "sloc_warehouse",
      address: {
        address_1: "Unit 7, Abbey Road",
        city: "London",
        postal_code: "NW10 7SJ",
        country_code: "gb",
        metadata: store?.externalId ? { external_location_id: store.externalId } : null,
      },
    },
    ...overrides,
  } as never
}
