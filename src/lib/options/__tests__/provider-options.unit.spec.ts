import { resolveProviderOptions } from "../provider-options"

const valid = { api_key: "lm_key_123456", base_url: "https://api.lastmile.example" }

describe("provider options", () => {
  it("fills the documented defaults", () => {
    expect(resolveProviderOptions(valid)).toEqual({
      apiKey: "lm_key_123456",
      baseUrl: "https://api.lastmile.example",
      webhookSecret: undefined,
      webhookSigningSecret: undefined,
      webhookSignatureHeader: "x-lastmile-signature",
      deliveryTypes: ["NEXT_DAY"],
      quoteBudgetMs: 3000,
      bookingTimeoutMs: 10_000,
      lookupTimeoutMs: 5000,
      locationsPath: "/fulfilment-locations",
      quoteCacheTtlSeconds: 30,
      fallbackAmounts: {},
      pricesIncludeTax: false,
      productIdSource: "sku",
      priceTolerancePercent: 0,
      deliveryRateRule: "cheapest",
      keepChosenPriceMs: 600_000,
      sendDeliveryNote: false,
    })
  })

  it("refuses an unknown delivery rate rule and a negative keep window", () => {
    expect(() => resolveProviderOptions({ ...valid, delivery_rate_rule: "fastest" })).toThrow(
      'delivery_rate_rule must be "cheapest" or "earliest"'
    )
    expect(() => resolveProviderOptions({ ...valid, keep_chosen_price_minutes: -1 })).toThrow(
      "keep_chosen_price_minutes must be 0 or more"
    )
  })

  it("reads fallback amounts per currency and refuses unusable ones", () => {
    expect(resolveProviderOptions({ ...valid, fallback_amounts: { GBP: 5.95 } }).fallbackAmounts).toEqual({
      gbp: 5.95,
    })
    expect(() => resolveProviderOptions({ ...valid, fallback_amounts: { pounds: 5 } })).toThrow(
      "fallback_amounts keys must be ISO currency codes"
    )
    expect(() => resolveProviderOptions({ ...valid, fallback_amounts: { gbp: -1 } })).toThrow(
      "fallback amounts must be 0 or more"
    )
  })

  it("takes the location list's path below base_url, and refuses anything but a path", () => {
    const path = "/fulfilment/fulfilment-locations"
    expect(resolveProviderOptions({ ...valid, locations_path: path }).locationsPath).toBe(path)
    for (const bad of ["fulfilment-locations", "https://other.example/locations", "/a/../b?x=1", "/"]) {
      expect(() => resolveProviderOptions({ ...valid, locations_path: bad })).toThrow(/locations_path must be a path/)
    }
  })

  it("refuses a webhook secret too short to be a secret or unsafe in a URL path", () => {
    expect(() => resolveProviderOptions({ ...valid, webhook_secret: "short" })).toThrow(/at least 16/)
    expect(() => resolveProviderOptions({ ...valid, webhook_secret: "has/slash/in/it/0123456" })).toThrow(/URL path/)
  })

  it("never echoes the API key in a validation message", () => {
    expect(() => resolveProviderOptions({ api_key: "lm_secret_value_999", base_url: "ftp://x" })).toThrow(
      expect.objectContaining({ message: expect.not.stringContaining("lm_secret_value_999") })
    )
  })
})
