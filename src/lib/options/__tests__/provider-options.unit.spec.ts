import { MedusaError } from "@medusajs/framework/utils"
import { buildFulfillmentOptions, deliveryOptionId } from "../../contracts/fulfillment-options"
import { resolveProviderOptions } from "../provider-options"
import { LastmileFulfillmentProviderService } from "../../../providers/lastmile/service"

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
      quoteCacheTtlSeconds: 30,
      fallbackAmounts: {},
      pricesIncludeTax: false,
      productIdSource: "sku",
      priceTolerancePercent: 0,
      deliveryRateRule: "cheapest",
      keepChosenPriceMs: 600_000,
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

  it("names every bad option in one boot error", () => {
    let error: unknown
    try {
      LastmileFulfillmentProviderService.validateOptions({
        base_url: "not a url",
        quote_cache_ttl_seconds: 300,
        delivery_types: ["next-day"],
      })
    } catch (e) {
      error = e
    }
    expect(error).toBeInstanceOf(MedusaError)
    expect((error as MedusaError).type).toBe(MedusaError.Types.INVALID_DATA)
    const message = (error as Error).message
    expect(message).toContain("api_key is required")
    expect(message).toContain("base_url must be an absolute http(s) URL")
    expect(message).toContain("quote_cache_ttl_seconds must be at most 110")
    expect(message).toContain("upper snake case, like NEXT_DAY")
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

describe("fulfillment options", () => {
  it("offers each delivery type, collection and return, with kebab-case ids", () => {
    const options = buildFulfillmentOptions(["NEXT_DAY", "SAME_DAY_EVENING"])
    expect(options.map((o) => o.id)).toEqual([
      "lastmile-next-day",
      "lastmile-same-day-evening",
      "lastmile-collection",
      "lastmile-return",
    ])
    expect(deliveryOptionId("NEXT_DAY")).toBe("lastmile-next-day")
  })

  it("can calculate prices for delivery and collection, not for the return option", async () => {
    const provider = new LastmileFulfillmentProviderService(
      { logger: { debug: jest.fn(), warn: jest.fn() } as never },
      valid
    )
    const can = (id: string) => provider.canCalculate({ data: { id } } as never)
    await expect(can("lastmile-next-day")).resolves.toBe(true)
    await expect(can("lastmile-collection")).resolves.toBe(true)
    await expect(can("lastmile-return")).resolves.toBe(false)
    await expect(can("something-else")).resolves.toBe(false)
  })
})
