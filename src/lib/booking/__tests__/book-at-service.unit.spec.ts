/**
 * The booking core against the simulator on loopback: what it books, what
 * it refuses and why, and what it adopts instead of booking twice.
 */
import {
  LastmileBookingOutcomeUnknownError,
  LastmileClient,
  LastmileRejectedError,
  LastmileTimeoutError,
  LastmileUnreachableError,
} from "../../service-client"
import { LastmileSimulator, londonLocations } from "../../../../packages/simulator/src"
import { ukShopperAddress as shopper } from "../../../../integration-tests/helpers/service-requests"
import { type BookingSubject, bookAtService } from "../book-at-service"
import { outcomeOfError, settlementOf } from "../booking-outcome"
import { buildFulfillmentOptions } from "../../contracts/fulfillment-options"

const KEY = "lm_test_key_booking"
const [nextDay, collection, returns] = buildFulfillmentOptions(["NEXT_DAY"])
const warehouse = { address_1: "Unit 7, Abbey Road", city: "London", postal_code: "NW10 7SJ", country_code: "gb" }
const policy = { productIdSource: "sku" as const, priceTolerancePercent: 0, deliveryRateRule: "cheapest" as const }

const subject = (overrides: Partial<BookingSubject> = {}): BookingSubject => ({
  direction: "delivery",
  option: nextDay,
  deliveryType: "NEXT_DAY",
  merchantOrderId: "order_1",
  merchantOrderName: "#42",
  customerAddress: shopper,
  email: "ada@example.com",
  lines: [{ variant_id: "variant_tee", variant_sku: "DEMO-TEE", quantity: 1 }],
  merchantAddress: warehouse,
  currency: "gbp",
  lookupFirst: false,
  ...overrides,
})

describe("the booking core", () => {
  let sim: LastmileSimulator
  let client: LastmileClient

  beforeEach(async () => {
    sim = new LastmileSimulator({ config: { apiKey: KEY }, locations: londonLocations(["DEMO-TEE"]) })
    await sim.start()
    client = new LastmileClient({ apiKey: KEY, baseUrl: sim.url })
  })

  afterEach(async () => {
    await client.close()
    await sim.stop()
  })

  it("books nothing when the price rose since the shopper paid, and says by how much", async () => {
    const outcome = await bookAtService(client, subject({ merchantOrderId: "order_rise", paidMinor: 400 }), policy)
    expect(outcome).toEqual({
      status: "refused",
      reason: "Lastmile booking needs attention: the price rose from £4.00 paid to £4.95",
    })
    expect(sim.requests("bookDelivery")).toHaveLength(0)
  })

  it("accepts a rise within the merchant's tolerance, and books the order's reference and name", async () => {
    const booked = await bookAtService(client, subject({ merchantOrderId: "order_within", paidMinor: 400 }), {
      ...policy,
      priceTolerancePercent: 25,
    })
    expect(booked).toMatchObject({
      status: "booked",
      adopted: false,
      rate: { rateCode: "NEXT_DAY", price: { amount: 495, currency: "GBP" } },
    })
    expect(sim.requests("bookDelivery")[0].body).toMatchObject({
      rateCode: "NEXT_DAY",
      order: { merchantOrderId: "order_within", merchantOrderName: "#42" },
      collection: { address: { line1: "Unit 7, Abbey Road" } },
      delivery: { address: { line1: "12 Long Acre" } },
    })
  })

  it("adopts what an earlier attempt booked instead of posting again", async () => {
    const first = await bookAtService(client, subject({ merchantOrderId: "order_twice" }), policy)
    const again = await bookAtService(client, subject({ merchantOrderId: "order_twice", lookupFirst: true }), policy)
    if (first.status !== "booked") {
      throw new Error(`the first attempt was not booked: ${first.reason}`)
    }
    expect(again).toMatchObject({ status: "booked", adopted: true, task: { taskId: first.task.taskId } })
    expect(sim.requests("bookDelivery")).toHaveLength(1)
  })

  it("books a store collection with the store's external id, and refuses one without a store", async () => {
    const booked = await bookAtService(
      client,
      subject({ option: collection, merchantOrderId: "order_col", merchantLocationId: "store-camden" }),
      policy
    )
    expect(booked).toMatchObject({ status: "booked", rate: { rateCode: "SVC_COL" } })
    expect(sim.requests("bookDelivery")[0].body).toMatchObject({ collection: { merchantLocationId: "store-camden" } })
    expect(await bookAtService(client, subject({ option: collection, merchantLocationId: null }), policy)).toEqual({
      status: "refused",
      reason: "Lastmile booking needs attention: the shipping method does not say which store was chosen",
    })
  })

  it("books a return the other way, from the customer to the merchant, with no price check", async () => {
    await bookAtService(
      client,
      subject({ direction: "return", option: returns, merchantOrderId: "ret_1", paidMinor: 0 }),
      policy
    )
    expect(sim.requests("bookReturn")[0].body).toMatchObject({
      order: { merchantOrderId: "ret_1" },
      collection: { address: { line1: "12 Long Acre" } },
      delivery: { address: { line1: "Unit 7, Abbey Road" } },
    })
  })

  it("needs the merchant when the shopper's details cannot be booked", async () => {
    const outcome = await bookAtService(client, subject({ customerAddress: { ...shopper, phone: "123" } }), policy)
    expect(outcome).toMatchObject({
      status: "refused",
      reason: expect.stringContaining("Enter a phone number that can be dialled"),
    })
    expect(sim.requests("quote")).toHaveLength(0)
  })

  describe("the shopper's note to the courier", () => {
    const noted = (merchantOrderId: string, overrides: Partial<BookingSubject> = {}) =>
      subject({ merchantOrderId, deliveryNote: "Gate code 4821, leave with no. 12", ...overrides })
    const sentNotes = () =>
      sim.requests("bookDelivery").map((r) => (r.body as { order: { note?: string } }).order.note ?? null)

    it("goes as order.note only when the merchant says the service takes it", async () => {
      const off = await bookAtService(client, noted("order_note_off"), policy)
      const on = await bookAtService(client, noted("order_note_on"), { ...policy, sendDeliveryNote: true })
      expect(off).not.toHaveProperty("deliveryNote")
      expect(on).toMatchObject({ status: "booked", deliveryNote: { sent: true } })
      expect(sentNotes()).toEqual([null, "Gate code 4821, leave with no. 12"])
      expect(sim.tasks().find((t) => t.merchantOrderId === "order_note_on")?.note).toBe(
        "Gate code 4821, leave with no. 12"
      )
    })

    it("never goes with a collection or a return", async () => {
      const sending = { ...policy, sendDeliveryNote: true }
      await bookAtService(client, noted("ret_note", { direction: "return", option: returns, paidMinor: 0 }), sending)
      expect(sim.requests("bookReturn")[0].body).not.toHaveProperty("order.note")
    })

    it("refused by a service that does not take it: booked without it, and the outcome says so", async () => {
      sim.configure({ orderNote: "refuse" })
      const outcome = await bookAtService(client, noted("order_note_refused"), { ...policy, sendDeliveryNote: true })
      expect(outcome).toMatchObject({ status: "booked", adopted: false, deliveryNote: { sent: false, status: 400 } })
      expect(sentNotes()).toEqual(["Gate code 4821, leave with no. 12", null])
      expect(sim.tasks().filter((t) => t.merchantOrderId === "order_note_refused")).toHaveLength(1)
    })

    it("a refusal that is the booking's own, not the note's, is still the booking's refusal", async () => {
      sim.addFault({ operation: "bookDelivery", kind: "status", status: 422 })
      const outcome = await bookAtService(client, noted("order_note_422"), { ...policy, sendDeliveryNote: true })
      expect(outcome).toMatchObject({ status: "refused" })
      expect(sentNotes()).toEqual(["Gate code 4821, leave with no. 12", null])
      expect(sim.tasks()).toHaveLength(0)
    })
  })

  it("answers a service that fails as an unknown outcome, never an exception", async () => {
    sim.addFault({ operation: "bookDelivery", kind: "dropAfterCommit", times: 5 })
    sim.addFault({ operation: "lookupDelivery", kind: "status", status: 503 })
    const outcome = await bookAtService(client, subject({ merchantOrderId: "order_lost" }), policy)
    expect(outcome).toMatchObject({ status: "unknown", posted: true })
    expect(sim.requests("bookDelivery").length).toBeGreaterThan(0)
  })
})

describe("the one settlement of a failed booking", () => {
  const refused = new LastmileRejectedError("refused", { status: 422 })
  const unknown = new LastmileBookingOutcomeUnknownError("unknown", "ref_1", 3, new LastmileTimeoutError("t", 10))
  const delivery = { direction: "delivery" as const, retryable: true }
  const returned = { direction: "return" as const, retryable: true }

  it("retries a delivery whose outcome is unknown (the lookup finds it), and asks the merchant after a refusal", () => {
    expect(settlementOf(outcomeOfError(new LastmileTimeoutError("no answer", 10)), delivery).status).toBe("failed")
    expect(settlementOf(outcomeOfError(unknown), delivery).status).toBe("failed")
    expect(settlementOf(outcomeOfError(refused), delivery)).toEqual({
      status: "needs_attention",
      reason: "Lastmile booking failed: refused",
    })
    // Items the merchant picked by hand cannot be fulfilled again by the job: they wait for the merchant.
    expect(settlementOf(outcomeOfError(unknown), { ...delivery, retryable: false }).status).toBe("needs_attention")
  })

  it("never retries a return that may have been posted, only one the service never received", () => {
    expect(settlementOf(outcomeOfError(unknown), returned).status).toBe("needs_attention")
    expect(settlementOf(outcomeOfError(refused), returned).status).toBe("needs_attention")
    const down = new LastmileUnreachableError("down", { beforeSend: true })
    expect(settlementOf(outcomeOfError(down), returned).status).toBe("failed")
  })
})
