/** The provider's options as Medusa's loader checks them at boot, and which of its options it prices. */
import { MedusaError } from "@medusajs/framework/utils"
import { LastmileFulfillmentProviderService } from "../service"

const valid = { api_key: "lm_key_123456", base_url: "https://api.lastmile.example" }

describe("the provider's options", () => {
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
    // The dashboard's edit of an option (a new name) sends no data: the option keeps the data it was created with.
    const edit = {
      id: "so_1",
      name: "Next day, by lastmile",
      price_type: "calculated",
      provider_id: "lastmile_lastmile",
    }
    await expect(provider.canCalculate(edit as never)).resolves.toBe(true)
    await expect(provider.canCalculate({ name: "New option", price_type: "calculated" } as never)).resolves.toBe(false)
  })
})
