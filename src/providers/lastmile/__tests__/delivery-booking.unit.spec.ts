import { LastmileClient } from "../../../lib/service-client"
import { LastmileSimulator, londonLocations } from "../../../simulator"
import { ukShopperAddress as shopper } from "../../../test-support/service-requests"
import { DeliveryBooker, LastmileAlreadyBookedError, LastmileBookingNeedsAttentionError } from "../delivery-booking"
import { buildFulfillmentOptions } from "../../../lib/lastmile/fulfillment-options"

const KEY = "lm_test_key_booking"
const [nextDay] = buildFulfillmentOptions(["NEXT_DAY"])
const warehouse = { address_1: "Unit 7, Abbey Road", city: "London", postal_code: "NW10 7SJ", country_code: "gb" }

const order = (id: string) => ({
  id,
  display_id: 42,
  currency_code: "gbp",
  customer: { email: "ada@example.com" },
  shipping_address: shopper,
  items: [{ variant_id: "variant_tee", variant_sku: "DEMO-TEE", quantity: 1 }],
})

describe("DeliveryBooker", () => {
  let sim: LastmileSimulator
  let client: LastmileClient
  const booker = (priceTolerancePercent = 0) =>
    new DeliveryBooker(client, { productIdSource: "sku", priceTolerancePercent, storesFor: async () => [] })

  beforeEach(async () => {
    sim = new LastmileSimulator({ config: { apiKey: KEY }, locations: londonLocations(["DEMO-TEE"]) })
    await sim.start()
    client = new LastmileClient({ apiKey: KEY, baseUrl: sim.url })
  })

  afterEach(async () => {
    await client.close()
    await sim.stop()
  })

  const data = {
    optionId: "lastmile-next-day",
    deliveryType: "NEXT_DAY",
    rateCode: "NEXT_DAY",
    quotedAmount: 400,
    quotedCurrency: "GBP",
  }

  it("books nothing when the price rose since checkout, and says by how much", async () => {
    const attempt = booker().book({
      option: nextDay,
      data,
      order: order("order_rise"),
      additional: { collection_address: warehouse, adopt_existing: true, first_attempt: true },
    })
    await expect(attempt).rejects.toThrow(LastmileBookingNeedsAttentionError)
    await expect(attempt).rejects.toThrow("the price rose from £4.00 at checkout to £4.95")
    expect(sim.requests("bookDelivery")).toHaveLength(0)
  })

  it("accepts a rise within the merchant's tolerance", async () => {
    const booked = await booker(25).book({
      option: nextDay,
      data,
      order: order("order_within"),
      additional: { collection_address: warehouse, adopt_existing: true, first_attempt: true },
    })
    expect(booked.rateCode).toBe("NEXT_DAY")
    expect(sim.requests("bookDelivery")[0].body).toMatchObject({
      order: { merchantOrderId: "order_within", merchantOrderName: "#42" },
    })
  })

  it("refuses a second delivery for an order booked outside the plugin's runner", async () => {
    const args = { option: nextDay, data: { ...data, quotedAmount: 495 }, order: order("order_twice") }
    await booker().book({
      ...args,
      additional: { collection_address: warehouse, adopt_existing: true, first_attempt: true },
    })
    await expect(booker().book({ ...args, additional: { collection_address: warehouse } })).rejects.toThrow(
      LastmileAlreadyBookedError
    )
    expect(sim.requests("bookDelivery")).toHaveLength(1)
  })
})
