import { Modules } from "@medusajs/framework/utils"
import { medusaIntegrationTestRunner } from "../helpers/medusa-app"
import type { InsightsReport } from "../../src/lib/contracts/insights-api"
import { historyEntries, quotedPromise } from "../../src/lib/insights/task-facts"
import { analyticsId } from "../../src/lib/insights/insight-events"
import { defaultConfig } from "../../packages/simulator/src"
import { type Admin, adminFor } from "../helpers/admin"
import { londonTestLocations, useLondonStore } from "../helpers/london-store"
import { type TaskRow, lastmileTasks, waitForTask } from "../helpers/orders"
import type { SeededStore } from "../helpers/seed-store"
import { TEST_WEBHOOK_SECRET, useSimulator } from "../helpers/simulator"
import { type Storefront, londonShopper, placeOrder } from "../helpers/storefront"
import { TEE_SKU } from "../helpers/seed-store"

jest.setTimeout(180_000)

const TIME_ZONE = "Europe/London"
const { simulator } = useSimulator(
  { locations: londonTestLocations(), config: { webhook: { payload: "full", retryBaseMs: 100, retryMaxMs: 1000 } } },
  { LASTMILE_INSIGHTS_TIME_ZONE: TIME_ZONE, LASTMILE_ANALYTICS: "local" }
)

const NEXT_DAY = defaultConfig().deliveryServices[0]

/** A zone whose clock reads about noon now: a window of that whole local day surely holds this moment. */
function noonZone(): string {
  const k = new Date().getUTCHours() - 12
  return k === 0 ? "Etc/GMT" : `Etc/GMT${k > 0 ? "+" : "-"}${Math.abs(k)}`
}

interface Rate {
  shipping_option_id: string
  available: boolean
  unavailable_code: string | null
}

/** What the test expects the counters to hold, from what the storefront was answered: per cart, each option's lot. */
interface Expected {
  /** Cart → option → "offered" once it was offered in any state, else its latest reason. */
  byCart: Map<string, Map<string, string>>
  chosen: Map<string, number>
}

const OFFERED = "offered"

/** Each option's counts: every cart once, offered when it ever was, else under its latest reason. */
function countsOf(expected: Expected) {
  const rows = new Map<string, { offered: number; chosen: number; unavailable: Record<string, number> }>()
  const row = (id: string) => {
    let found = rows.get(id)
    if (!found) {
      found = { offered: 0, chosen: 0, unavailable: {} }
      rows.set(id, found)
    }
    return found
  }
  for (const options of expected.byCart.values()) {
    for (const [id, lot] of options) {
      if (lot === OFFERED) {
        row(id).offered++
      } else {
        row(id).unavailable[lot] = (row(id).unavailable[lot] ?? 0) + 1
      }
    }
  }
  for (const [id, chosen] of expected.chosen) {
    row(id).chosen = chosen
  }
  return rows
}

medusaIntegrationTestRunner({
  testSuite: ({ api, getContainer }) => {
    let seed: SeededStore
    let shop: Storefront
    let admin: Admin
    let track: jest.SpyInstance
    const london = useLondonStore(simulator, { api, getContainer })
    const expected: Expected = { byCart: new Map(), chosen: new Map() }
    /** What a cart was answered for an option: offered sticks for the day; else the latest reason counts. */
    const saw = (cartId: string, optionId: string, lot: string) => {
      const options = expected.byCart.get(cartId) ?? new Map<string, string>()
      expected.byCart.set(cartId, options)
      if (options.get(optionId) !== OFFERED) {
        options.set(optionId, lot)
      }
    }
    /** One cart state priced through the rates route: each option offered or not, as the shopper saw it. */
    const priceWithRatesRoute = async (cartId: string) => {
      const answer = await shop.get<{ rates: Rate[] }>(`/store/lastmile/rates?cart_id=${cartId}`)
      expect(answer.status).toBe(200)
      for (const rate of answer.data.rates) {
        saw(cartId, rate.shipping_option_id, rate.available ? OFFERED : rate.unavailable_code!)
      }
      return answer.data.rates
    }
    const insights = async (query = "") => {
      const answer = await admin.get<InsightsReport>(`/admin/lastmile/insights${query}`)
      expect({ status: answer.status, body: answer.status === 200 ? null : answer.data }).toEqual({
        status: 200,
        body: null,
      })
      return answer.data
    }
    /** Asks until `done` holds (subscribers run after the answers that started them), then answers the report. */
    const insightsWhen = async (done: (r: InsightsReport) => boolean, query = "") => {
      const deadline = Date.now() + 20_000
      for (;;) {
        const report = await insights(query)
        if (done(report) || Date.now() > deadline) {
          return report
        }
        await new Promise((resolve) => setTimeout(resolve, 200))
      }
    }

    /** A shopper's checkout: the cart, its rates, the option chosen, the order placed and its task settled. */
    const checkout = async (optionId: string, beforeComplete?: () => void) => {
      const cart = await shop.createCart({
        region_id: seed.regions.gbp,
        email: "ada@example.com",
        shipping_address: londonShopper,
        items: [{ variant_id: seed.variants.tee, quantity: 1 }],
      })
      await priceWithRatesRoute(cart.id)
      const chosen = await shop.post(`/store/carts/${cart.id}/shipping-methods`, { option_id: optionId })
      expect({ status: chosen.status, body: chosen.status === 200 ? null : chosen.data }).toEqual({
        status: 200,
        body: null,
      })
      expected.chosen.set(optionId, (expected.chosen.get(optionId) ?? 0) + 1)
      beforeComplete?.()
      const order = await placeOrder(shop, cart.id)
      const task = await waitForTask(getContainer(), order.id)
      return { order, task, taskId: Number(task.task_id) }
    }
    const moveTo = async (orderId: string, taskId: number, value: string, done: (t: TaskRow) => boolean) => {
      simulator.setTaskStatus(taskId, value)
      return waitForTask(getContainer(), orderId, done)
    }
    const deliveredAt = (task: TaskRow) => historyEntries(task.status_history).find((e) => e.phase === "delivered")!.at

    beforeAll(async () => {
      ;({ seed, shop } = london)
      admin = await adminFor(api, getContainer())
      track = jest.spyOn(getContainer().resolve(Modules.ANALYTICS), "track")
    })
    beforeEach(() => {
      simulator.configure({ webhookUrl: `${api.defaults.baseURL}/hooks/lastmile/${TEST_WEBHOOK_SECRET}` })
    })

    it("answers an empty report saying nothing happened, for the last 30 days by default", async () => {
      const report = await insights()
      expect(report.period.time_zone).toBe(TIME_ZONE)
      expect(report.offers.carts).toBe(0)
      expect(report.deliveries).toMatchObject({ booked: 0, delivered: 0 })
      // Every lastmile option is listed, never offered yet: what a merchant looks for first.
      expect(report.offers.by_option.map((r) => r.option_id).sort()).toEqual(
        [seed.options.nextDay, ...Object.values(seed.options.collection)].sort()
      )
      expect(report.offers.by_option.every((r) => r.offered === 0 && r.chosen === 0)).toBe(true)
    })

    it("counts deliveries before, inside and after their window, collections made ready and collected, failures, and the offers priced", async () => {
      const camden = seed.options.collection["store-camden"]
      const shoreditch = seed.options.collection["store-shoreditch"]

      // Early: tomorrow's window (the simulator's default), delivered now.
      const early = await checkout(seed.options.nextDay)
      // On time: a window of the whole local day, around now.
      simulator.configure({
        timezone: noonZone(),
        deliveryServices: [{ ...NEXT_DAY, daysAhead: 0, windowFrom: "00:00", windowTo: "23:59" }],
      })
      const onTime = await checkout(seed.options.nextDay)
      // Late: yesterday's window.
      simulator.configure({ timezone: "Europe/London", deliveryServices: [{ ...NEXT_DAY, daysAhead: -1 }] })
      const late = await checkout(seed.options.nextDay)
      simulator.configure({ deliveryServices: [NEXT_DAY] })

      const collected = await checkout(camden)
      const waiting = await checkout(shoreditch)
      // The store sells out before the order is placed: the booking needs the merchant.
      const refused = await checkout(camden, () => {
        simulator.location("store-camden").stock[TEE_SKU] = 0
      })
      simulator.setLocations(londonTestLocations())
      expect([early, onTime, late, collected, waiting].map((o) => o.task.status)).toEqual(Array(5).fill("booked"))
      expect(refused.task.status).toBe("needs_attention")

      // A cart priced twice, abandoned: first without a phone (nothing can be offered), then through Medusa's /calculate.
      const abandoned = await shop.createCart({
        region_id: seed.regions.gbp,
        email: "grace@example.com",
        shipping_address: { ...londonShopper, phone: null },
        items: [{ variant_id: seed.variants.tee, quantity: 2 }],
      })
      const withoutPhone = await priceWithRatesRoute(abandoned.id)
      expect(withoutPhone.every((r) => !r.available && r.unavailable_code === "input_incomplete")).toBe(true)
      expect((await shop.post(`/store/carts/${abandoned.id}`, { shipping_address: londonShopper })).status).toBe(200)
      const calculated = await shop.post<{ shipping_option: { amount: number | null } }>(
        `/store/shipping-options/${shoreditch}/calculate`,
        { cart_id: abandoned.id, data: {} }
      )
      expect(calculated.status).toBe(200)
      expect(calculated.data.shipping_option.amount).not.toBeNull()
      // The same cart, another state: it counts once, and Shoreditch as offered (it was, in this state).
      saw(abandoned.id, shoreditch, OFFERED)

      const deliveredEarly = await moveTo(
        early.order.id,
        early.taskId,
        "DELIVERED",
        (t) => t.tracking_state === "delivered"
      )
      const deliveredOnTime = await moveTo(
        onTime.order.id,
        onTime.taskId,
        "DELIVERED",
        (t) => t.tracking_state === "delivered"
      )
      const deliveredLate = await moveTo(
        late.order.id,
        late.taskId,
        "DELIVERED",
        (t) => t.tracking_state === "delivered"
      )
      await moveTo(collected.order.id, collected.taskId, "READY_FOR_COLLECTION", (t) => t.tracking_state === "shipped")
      const pickedUp = await moveTo(
        collected.order.id,
        collected.taskId,
        "COLLECTED_BY_CUSTOMER",
        (t) => t.tracking_state === "delivered"
      )
      await moveTo(waiting.order.id, waiting.taskId, "READY_FOR_COLLECTION", (t) => t.tracking_state === "shipped")

      const totalChosen = (r: InsightsReport) => r.offers.by_option.reduce((sum, o) => sum + o.chosen, 0)
      const report = await insightsWhen((r) => totalChosen(r) === 6)

      expect(report.booking).toMatchObject({ failed: 1, needs_attention: 1 })
      expect(report.booking.failure_reasons).toEqual([{ reason: refused.task.last_error, count: 1 }])
      expect(report.booking.placed_to_booked_ms.p50).toBeGreaterThan(0)
      expect(report.booking.placed_to_booked_ms.p95).toBeGreaterThanOrEqual(report.booking.placed_to_booked_ms.p50!)
      // Six moves in all (three deliveries, two collections ready, one collected), rung by webhooks.
      expect(report.status_moves.webhook + report.status_moves.poll).toBe(6)
      // The report gives the share to four decimals; a move the poll saw first (under load) makes it 5/6.
      expect(report.webhook_share).toBeCloseTo(report.status_moves.webhook / 6, 4)
      expect(report.status_moves.webhook).toBeGreaterThan(0)
      expect(pickedUp.status_history.entries.map((e) => e.value)).toContain("COLLECTED_BY_CUSTOMER")

      // Offers: each cart once, whichever route priced it and however often; each option as the shopper saw it.
      expect(report.offers.carts).toBe(expected.byCart.size)
      expect(expected.byCart.size).toBe(7)
      const counted = Object.fromEntries(
        report.offers.by_option.map((r) => [
          r.option_id,
          { offered: r.offered, chosen: r.chosen, unavailable: r.unavailable },
        ])
      )
      expect(counted).toEqual(Object.fromEntries(countsOf(expected)))
      expect(report.offers.by_option.find((r) => r.option_id === camden)).toMatchObject({
        kind: "collection",
        stock_location_id: seed.storeLocations["store-camden"],
        chosen: 2,
      })
      expect(report.previous.offers.carts).toBe(0)
      expect(report.previous.deliveries.delivered).toBe(0)
      expect(report.weeks.reduce((sum, w) => sum + w.early + w.on_time + w.late, 0)).toBe(3)

      // One store: its collections and its option only.
      const camdenOnly = await insights(`?stock_location_id=${seed.storeLocations["store-camden"]}`)
      expect(camdenOnly.deliveries.delivered).toBe(0)
      expect(camdenOnly.collections).toMatchObject({ booked: 1, collected: 1, not_collected: 0 })
      // The refused collection never booked, and still counts under its store.
      expect(camdenOnly.booking.needs_attention).toBe(1)
      expect(camdenOnly.offers.by_option.map((r) => r.option_id)).toEqual([camden])

      // The same figures as CSV.
      const csv = await admin.get<string>("/admin/lastmile/insights?format=csv")
      expect(csv.status).toBe(200)
      expect(csv.headers["content-type"]).toMatch(/^text\/csv/)
      expect(csv.headers["content-disposition"]).toMatch(
        /^attachment; filename="lastmile-insights-\d{4}-\d{2}-\d{2}-to-/
      )
      expect(csv.data.split("\r\n")).toEqual(
        expect.arrayContaining(["deliveries,late,,,,,,,1,0", "collections,collected,,,,,,,1,0"])
      )

      // Forwarded to the Analytics Module: every order's choice, the five bookings, three deliveries, one collection, each offer.
      const events = async (name: string, count: number) => {
        const deadline = Date.now() + 10_000
        let seen = track.mock.calls.filter(([e]) => e.event === name)
        while (seen.length < count && Date.now() < deadline) {
          await new Promise((resolve) => setTimeout(resolve, 100))
          seen = track.mock.calls.filter(([e]) => e.event === name)
        }
        return seen.map(([e]) => e)
      }
      expect(await events("lastmile_option_chosen", 6)).toHaveLength(6)
      expect(await events("lastmile_task_booked", 5)).toHaveLength(5)
      const arrived = await events("lastmile_parcel_delivered", 3)
      expect(arrived.map((e) => e.properties.punctuality).sort()).toEqual(["early", "late", "on_time"])
      expect(await events("lastmile_parcel_collected", 1)).toEqual([
        expect.objectContaining({ group: { type: "order", id: analyticsId(collected.order.id) } }),
      ])
      // One event per cart and day, its id hashed.
      const offered = await events("lastmile_options_offered", expected.byCart.size)
      expect(offered.map((e) => e.group.id).sort()).toEqual([...expected.byCart.keys()].map(analyticsId).sort())
      // No id that opens a cart or an order with the public key reaches the Analytics Module.
      const tracked = JSON.stringify(track.mock.calls)
      for (const id of [...expected.byCart.keys(), early.order.id, collected.order.id, refused.order.id]) {
        expect(tracked).not.toContain(id)
      }

      // The windows the tasks were booked at put each delivery where the test meant it.
      const windowOf = async (row: TaskRow) => {
        const [stored] = await lastmileTasks(getContainer()).listLastmileTasks({ id: row.id })
        return quotedPromise(stored.quoted_rate).window!
      }
      const [earlyWindow, onTimeWindow, lateWindow] = await Promise.all(
        [deliveredEarly, deliveredOnTime, deliveredLate].map(windowOf)
      )
      expect(deliveredAt(deliveredEarly)).toBeLessThan(earlyWindow.from)
      expect(deliveredAt(deliveredOnTime)).toBeGreaterThanOrEqual(onTimeWindow.from)
      expect(deliveredAt(deliveredOnTime)).toBeLessThanOrEqual(onTimeWindow.to)
      expect(deliveredAt(deliveredLate)).toBeGreaterThan(lateWindow.to)
      const lateMinutes = Math.round((deliveredAt(deliveredLate) - lateWindow.to) / 60_000)

      expect(report.deliveries).toEqual({
        booked: 3,
        delivered: 3,
        early: 1,
        on_time: 1,
        late: 1,
        no_window: 0,
        late_minutes_p50: lateMinutes,
      })
      expect(report.collections).toEqual({
        booked: 2,
        ready_on_time: 2,
        ready_late: 0,
        no_window: 0,
        collected: 1,
        not_collected: 1,
      })
      // The simulator's next-day rate saves 0.42 kg per parcel; collections carry no figure.
      expect(report.co2_saved_kg).toBe(1.26)
    })

    it("removes offer counters past the retention, as the nightly job does", async () => {
      // Each test starts from the seeded store: this one prices a cart of its own.
      const cart = await shop.createCart({
        region_id: seed.regions.gbp,
        email: "ada@example.com",
        shipping_address: londonShopper,
        items: [{ variant_id: seed.variants.mug, quantity: 3 }],
      })
      expect((await shop.get(`/store/lastmile/rates?cart_id=${cart.id}`)).status).toBe(200)
      const before = await insights()
      expect(before.offers.carts).toBe(1)
      const counters = lastmileTasks(getContainer()).offers
      // Two days from now, keeping one day: today's counters are past it; yesterday's (none) too.
      const later = new Date(Date.parse(`${before.period.to}T12:00:00Z`) + 2 * 86_400_000)
      expect(await counters.prune(1, new Date(Date.parse(`${before.period.to}T12:00:00Z`)))).toBe(0)
      expect(await counters.prune(1, later)).toBeGreaterThan(0)
      const after = await insights()
      expect(after.offers.carts).toBe(0)
      expect(after.offers.by_option.every((r) => r.offered === 0 && Object.keys(r.unavailable).length === 0)).toBe(true)
    })

    it("counts an anonymous cart changed twelve times as one cart, each option once, and tells Analytics once", async () => {
      const cart = await shop.createCart({
        region_id: seed.regions.gbp,
        shipping_address: londonShopper,
        items: [{ variant_id: seed.variants.tee, quantity: 1 }],
      })
      let options = 0
      for (let change = 1; change <= 12; change++) {
        const updated = await shop.post(`/store/carts/${cart.id}`, { email: `shopper-${change}@example.com` })
        expect(updated.status).toBe(200)
        const answer = await shop.get<{ rates: Rate[] }>(`/store/lastmile/rates?cart_id=${cart.id}`)
        expect(answer.status).toBe(200)
        expect(answer.data.rates.some((r) => r.available)).toBe(true)
        options = answer.data.rates.length
      }
      const report = await insights()
      expect(report.offers.carts).toBe(1)
      const perOption = report.offers.by_option.map(
        (r) => r.offered + Object.values(r.unavailable).reduce((sum, n) => sum + n, 0)
      )
      expect(perOption.filter((n) => n > 0)).toHaveLength(options)
      expect(Math.max(...perOption)).toBe(1)
      const deadline = Date.now() + 10_000
      const ofCart = () =>
        track.mock.calls.filter(([e]) => e.event === "lastmile_options_offered" && e.group?.id === analyticsId(cart.id))
      while (!ofCart().length && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
      // Another flush, and none more for the cart.
      await insights()
      await new Promise((resolve) => setTimeout(resolve, 500))
      expect(ofCart()).toHaveLength(1)
      expect(JSON.stringify(track.mock.calls)).not.toContain(cart.id)
    })

    it("refuses a bad period, an unknown store or parameter with a clear 4xx, and anyone but an admin", async () => {
      const bad = async (query: string) => {
        const answer = await admin.get<{ message: string }>(`/admin/lastmile/insights${query}`)
        return { status: answer.status, message: answer.data.message }
      }
      expect(await bad("?from=yesterday")).toEqual({
        status: 400,
        message: "from must be an ISO date (2026-11-01) or date-time (2026-11-01T00:00:00Z)",
      })
      expect(await bad("?from=2026-11-10&to=2026-11-01")).toEqual({
        status: 400,
        message: "from (2026-11-10) must not be after to (2026-11-01)",
      })
      expect((await bad("?from=2026-11-01&from=2026-11-02")).status).toBe(400)
      // Dates the calendar cannot read, or reads as another century: a 400, never a 500.
      for (const query of ["?to=9999-12-31", "?from=9999-12-31T23:59:59-12:00", "?from=0150-01-01&to=0150-01-31"]) {
        expect(await bad(query)).toEqual({
          status: 400,
          message: expect.stringContaining("must be a date in the years 2000 to 2999"),
        })
      }
      expect((await bad("?format=xml")).message).toBe('format must be "json" or "csv"')
      expect((await bad("?store=1")).status).toBe(400)
      expect(await bad("?stock_location_id=sloc_missing")).toEqual({
        status: 404,
        message: "Stock location with id: sloc_missing was not found",
      })
      const anonymous = await api.get("/admin/lastmile/insights", { validateStatus: () => true })
      expect(anonymous.status).toBe(401)
    })
  },
})
