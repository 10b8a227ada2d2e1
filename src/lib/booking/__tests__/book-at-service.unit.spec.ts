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
import { LastmileSimulator, londonLocations } from "../../../simulator"
import { ukShopperAddress as shopper } from "../../../test-support/service-requests"
import { type BookingSubject, bookAtService } from "../book-at-service"
import { BookingNeedsAttentionError, bookingFailureOf } from "../booking-failure"
import { buildFulfillmentOptions } from "../../contracts/fulfillment-options"
import { BOOKING_ERROR_CODES } from "../booking-codes"

const KEY = "lm_test_key_booking"
const [nextDay, collection, returns] = buildFulfillmentOptions(["NEXT_DAY"])
const warehouse = { address_1: "Unit 7, Abbey Road", city: "London", postal_code: "NW10 7SJ", country_code: "gb" }
const policy = { productIdSource: "sku" as const, priceTolerancePercent: 0, rateRule: "cheapest" as const }

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
    const attempt = bookAtService(client, subject({ merchantOrderId: "order_rise", paidMinor: 400 }), policy)
    await expect(attempt).rejects.toThrow(BookingNeedsAttentionError)
    await expect(attempt).rejects.toThrow("the price rose from £4.00 paid to £4.95")
    expect(sim.requests("bookDelivery")).toHaveLength(0)
  })

  it("accepts a rise within the merchant's tolerance, and books the order's reference and name", async () => {
    const booked = await bookAtService(client, subject({ merchantOrderId: "order_within", paidMinor: 400 }), {
      ...policy,
      priceTolerancePercent: 25,
    })
    expect(booked).toMatchObject({ adopted: false, rate: { rateCode: "NEXT_DAY" } })
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
    expect(again).toMatchObject({ adopted: true, task: { taskId: first.task.taskId } })
    expect(sim.requests("bookDelivery")).toHaveLength(1)
  })

  it("books a store collection with the store's external id, and refuses one without a store", async () => {
    const booked = await bookAtService(
      client,
      subject({ option: collection, merchantOrderId: "order_col", merchantLocationId: "store-camden" }),
      policy
    )
    expect(booked.rate?.rateCode).toBe("SVC_COL")
    expect(sim.requests("bookDelivery")[0].body).toMatchObject({ collection: { merchantLocationId: "store-camden" } })
    await expect(
      bookAtService(client, subject({ option: collection, merchantLocationId: null }), policy)
    ).rejects.toThrow("does not say which store was chosen")
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
    await expect(
      bookAtService(client, subject({ customerAddress: { ...shopper, phone: "123" } }), policy)
    ).rejects.toThrow("Enter a phone number that can be dialled")
  })
})

describe("the one settlement of a failed booking", () => {
  const refused = new LastmileRejectedError("refused", { status: 422 })
  const unknown = new LastmileBookingOutcomeUnknownError("unknown", "ref_1", 3, new LastmileTimeoutError("t", 10))

  it("retries a delivery whose outcome is unknown (the lookup finds it), and asks the merchant after a refusal", () => {
    expect(bookingFailureOf(new LastmileTimeoutError("no answer", 10), "delivery").code).toBe(
      BOOKING_ERROR_CODES.failed
    )
    expect(bookingFailureOf(unknown, "delivery").code).toBe(BOOKING_ERROR_CODES.failed)
    expect(bookingFailureOf(refused, "delivery").code).toBe(BOOKING_ERROR_CODES.needsAttention)
    expect(bookingFailureOf(new BookingNeedsAttentionError("rate gone"), "delivery")).toEqual({
      code: BOOKING_ERROR_CODES.needsAttention,
      message: "Lastmile booking needs attention: rate gone",
    })
  })

  it("never retries a return that may have been posted, only one the service never received", () => {
    expect(bookingFailureOf(unknown, "return").code).toBe(BOOKING_ERROR_CODES.needsAttention)
    expect(bookingFailureOf(refused, "return").code).toBe(BOOKING_ERROR_CODES.needsAttention)
    const down = new LastmileUnreachableError("down", { beforeSend: true })
    expect(bookingFailureOf(down, "return").code).toBe(BOOKING_ERROR_CODES.failed)
    // An outcome that crossed the workflow engine keeps its code.
    expect(bookingFailureOf({ code: BOOKING_ERROR_CODES.failed, message: "carried" }, "return")).toEqual({
      code: BOOKING_ERROR_CODES.failed,
      message: "carried",
    })
  })
})
