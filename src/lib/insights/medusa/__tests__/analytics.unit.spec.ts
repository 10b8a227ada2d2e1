import { ContainerRegistrationKeys, Modules, createMedusaContainer } from "@medusajs/framework/utils"
import { asValue } from "@medusajs/framework/awilix"
import { analyticsModule, trackInsights } from "../analytics"
import {
  INSIGHT_EVENTS,
  analyticsId,
  arrivedEvent,
  bookedEvent,
  chosenEvents,
  offeredEvents,
} from "../../insight-events"

const warnings: string[] = []
const logger = { warn: (message: string) => warnings.push(message) }

function container(analytics?: { track: (event: unknown) => Promise<void> }) {
  const c = createMedusaContainer()
  c.register(ContainerRegistrationKeys.LOGGER, asValue(logger))
  if (analytics) {
    c.register(Modules.ANALYTICS, asValue(analytics))
  }
  return c
}

const row = {
  id: "lmtask_1",
  order_id: "order_1",
  kind: "delivery",
  mode: "delivery",
  status: "booked",
  rate_code: "NEXT_DAY",
  shipping_option_id: "so_next",
  stock_location_id: "sloc_warehouse",
  placed_at: "2026-11-10T09:00:00.000Z",
  created_at: "2026-11-10T09:00:00.100Z",
  booked_at: "2026-11-10T09:00:00.900Z",
  quoted_rate: {
    rate_code: "NEXT_DAY",
    amount: 4.95,
    currency_code: "GBP",
    window: { from: "2026-11-11T08:00:00.000Z", to: "2026-11-11T20:00:00.000Z" },
    co2_savings: 0.42,
  },
  status_history: {
    entries: [
      { value: "NOT_STARTED", at: "2026-11-10T09:00:00.900Z" },
      { value: "DELIVERED", at: "2026-11-11T21:30:00.000Z", source: "webhook", phase: "delivered" },
    ],
  },
  last_error: null,
}

describe("trackInsights", () => {
  beforeEach(() => warnings.splice(0))

  it("does nothing, and needs nothing, when the app has no Analytics Module", async () => {
    const app = container()
    expect(analyticsModule(app)).toBeNull()
    expect(await trackInsights(app, chosenEvents({ id: "order_1" }, []))).toBe(0)
    expect(await trackInsights(app, [bookedEvent(row)!])).toBe(0)
    expect(warnings).toEqual([])
  })

  it("tracks each event with the app's module, and logs a provider's failure without throwing", async () => {
    const sent: unknown[] = []
    const app = container({
      track: async (event) => {
        if ((event as { event: string }).event === INSIGHT_EVENTS.delivered) {
          throw new Error("PostHog is down")
        }
        sent.push(event)
      },
    })
    expect(await trackInsights(app, [bookedEvent(row)!, arrivedEvent(row)!])).toBe(1)
    expect(sent).toEqual([
      {
        event: "lastmile_task_booked",
        group: { type: "order", id: analyticsId("order_1") },
        properties: expect.objectContaining({ mode: "delivery", amount: 4.95, placed_to_booked_ms: 900 }),
      },
    ])
    expect(warnings).toEqual(["lastmile: the Analytics Module did not take lastmile_parcel_delivered: PostHog is down"])
  })
})

describe("insight events", () => {
  it("say a delivery arrived late against its window, and a collection was collected", () => {
    expect(arrivedEvent(row)).toMatchObject({
      event: "lastmile_parcel_delivered",
      properties: { punctuality: "late", late_minutes: 90, co2_savings: 0.42, window_to: "2026-11-11T20:00:00.000Z" },
    })
    expect(arrivedEvent({ ...row, mode: "collection", rate_code: "SVC_COL" })).toMatchObject({
      event: "lastmile_parcel_collected",
    })
    expect(arrivedEvent({ ...row, status_history: { entries: [] } })).toBeNull()
    expect(bookedEvent({ ...row, kind: "return", mode: "return" })).toBeNull()
  })

  it("name the option chosen and the offers made, and nothing of the shopper", () => {
    expect(
      chosenEvents({ id: "order_1", customer_id: "cus_1" }, [
        {
          shipping_option_id: "so_soho",
          name: "Collect from Soho",
          fulfillment_option: "lastmile-collection",
          stock_location_id: "sloc_soho",
        },
      ])
    ).toEqual([
      {
        event: "lastmile_option_chosen",
        actor_id: analyticsId("cus_1"),
        group: { type: "order", id: analyticsId("order_1") },
        properties: {
          shipping_option_id: "so_soho",
          shipping_option_name: "Collect from Soho",
          fulfillment_option: "lastmile-collection",
          kind: "collection",
          stock_location_id: "sloc_soho",
        },
      },
    ])
    expect(
      offeredEvents([
        {
          day: "2026-11-10",
          cart_id: "cart_1",
          options: [
            {
              fulfillment_option: "lastmile-next-day",
              stock_location_id: "sloc_w",
              offered: false,
              reason: "route_not_served",
            },
            { fulfillment_option: "lastmile-collection", stock_location_id: "sloc_soho", offered: true, reason: null },
          ],
        },
      ])
    ).toEqual([
      {
        event: "lastmile_options_offered",
        group: { type: "cart", id: analyticsId("cart_1") },
        properties: {
          day: "2026-11-10",
          offered: 1,
          unavailable: 1,
          options: [
            {
              fulfillment_option: "lastmile-next-day",
              stock_location_id: "sloc_w",
              available: false,
              unavailable_reason: "route_not_served",
            },
            {
              fulfillment_option: "lastmile-collection",
              stock_location_id: "sloc_soho",
              available: true,
              unavailable_reason: null,
            },
          ],
        },
      },
    ])
  })
})

describe("ids sent to the Analytics Module", () => {
  it("are hashed: no cart, order, customer or task id appears in any event, and one id always hashes alike", () => {
    const events = [
      ...offeredEvents([{ day: "2026-11-10", cart_id: "cart_01JABCDEF", options: [] }]),
      ...chosenEvents({ id: "order_1", customer_id: "cus_1" }, [
        {
          shipping_option_id: "so_next",
          name: "Next day",
          fulfillment_option: "lastmile-next-day",
          stock_location_id: null,
        },
      ]),
      bookedEvent(row)!,
      arrivedEvent(row)!,
    ]
    const sent = JSON.stringify(events)
    for (const id of ["cart_01JABCDEF", "order_1", "cus_1", "lmtask_1"]) {
      expect(sent).not.toContain(id)
    }
    expect(analyticsId("order_1")).toMatch(/^[0-9a-f]{32}$/)
    expect(analyticsId("order_1")).toBe(analyticsId("order_1"))
    expect(analyticsId("order_2")).not.toBe(analyticsId("order_1"))
    // The store's own catalogue ids stay readable: they name options and stores, not a shopper's cart or order.
    expect(sent).toContain("so_next")
    expect(sent).toContain("sloc_warehouse")
  })
})
