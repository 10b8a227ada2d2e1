/**
 * Click and collect to the hand-over over HTTP (decisions 65 and 66): collect-by and code, hand-over, extension, time
 * up, a store's words and closed dates, the nearest store first, the service's hours changed under the running app.
 */
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import type { LastmileOrderBookingResponse, LastmileRatesResponse } from "medusa-plugin-lastmile-storefront"
import { medusaIntegrationTestRunner } from "../helpers/medusa-app"
import { DateTime } from "luxon"
import { londonHours } from "../../packages/simulator/src"
import { notifyDueTasks } from "../../src/workflows/notify-task/run"
import type { OrderTasksResponse, StockLocationPickup, TaskView } from "../../src/lib/contracts/admin-api"
import type { NotificationRecord } from "../../src/lib/notifications/notification-record"
import { CODE_ALPHABET } from "../../src/lib/collection/collection-code"
import { type Admin, adminFor } from "../helpers/admin"
import { londonTestLocations, useLondonStore } from "../helpers/london-store"
import { lastmileTasks, waitForTask } from "../helpers/orders"
import type { SeededStore } from "../helpers/seed-store"
import { TEST_WEBHOOK_SECRET, useSimulator } from "../helpers/simulator"
import { type Storefront, londonShopper, placeOrder } from "../helpers/storefront"
import { TEST_EMAIL_PROVIDER, testMailbox } from "../helpers/test-email-provider"

jest.setTimeout(120_000)

const { simulator } = useSimulator(
  { locations: londonTestLocations() },
  {
    LASTMILE_TEST_EMAIL_PROVIDER: TEST_EMAIL_PROVIDER,
    LASTMILE_TEST_SMS_PROVIDER: TEST_EMAIL_PROVIDER,
    LASTMILE_MERCHANT_EMAILS: "ops@shop.example",
    LASTMILE_TIME_ZONE: "Europe/London",
  }
)

const DAY = 86_400_000
const ZONE = "Europe/London"
let shoppers = 0

medusaIntegrationTestRunner({
  testSuite: ({ api, getContainer }) => {
    let seed: SeededStore
    let shop: Storefront
    let admin: Admin
    const london = useLondonStore(simulator, { api, getContainer })

    beforeAll(async () => {
      ;({ seed, shop } = london)
      admin = await adminFor(api, getContainer())
    })
    beforeEach(() => {
      simulator.configure({ webhookUrl: `${api.defaults.baseURL}/hooks/lastmile/${TEST_WEBHOOK_SECRET}` })
    })

    const tasks = () => lastmileTasks(getContainer())
    const brixton = () => seed.storeLocations["store-brixton"]

    /** A cart of one tee for a shopper of its own, at an address (`near` is the storefront's business). */
    const cartOf = async (address: Partial<typeof londonShopper> = {}) => {
      const email = `collector-${++shoppers}-${Date.now()}@example.com`
      const cart = await shop.createCart({
        region_id: seed.regions.gbp,
        email,
        shipping_address: { ...londonShopper, ...address },
        items: [{ variant_id: seed.variants.tee, quantity: 1 }],
      })
      return { cart, email }
    }
    /** A collection order from a store, booked. */
    const collectionOrder = async (store = "store-brixton") => {
      const { cart, email } = await cartOf()
      const chosen = await shop.post(`/store/carts/${cart.id}/shipping-methods`, {
        option_id: seed.options.collection[store],
      })
      expect(chosen.status).toBe(200)
      const placed = await placeOrder(shop, cart.id)
      const task = await waitForTask(getContainer(), placed.id)
      expect(task.status).toBe("booked")
      return { ...placed, email, task }
    }
    const record = async (taskRowId: string) =>
      ((await tasks().retrieveLastmileTask(taskRowId)).notifications ?? { sent: {} }) as NotificationRecord
    const until = async (taskRowId: string, keys: string[]) => {
      for (let tries = 0; ; tries++) {
        const kept = await record(taskRowId)
        if (keys.every((k) => k in kept.sent)) {
          return kept
        }
        if (tries > 200) {
          throw new Error(`task ${taskRowId} never sent ${keys.join(", ")}: ${JSON.stringify(kept)}`)
        }
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
    }
    /** Moves the collection to ready at the service (its webhook rings the app) and waits for the ready message. */
    const makeReady = async (placed: { task: { id: string; task_id: string | null } }) => {
      expect(simulator.advanceTask(Number(placed.task.task_id)).status.value).toBe("READY_FOR_COLLECTION")
      await until(placed.task.id, ["collection_ready"])
    }
    const booking = async (orderId: string) => {
      const answer = await shop.get<LastmileOrderBookingResponse>(`/store/lastmile/orders/${orderId}/booking`)
      expect(answer.status).toBe(200)
      return answer.data.booking
    }
    const taskView = async (orderId: string): Promise<TaskView> => {
      const answer = await admin.get<OrderTasksResponse>(`/admin/lastmile/orders/${orderId}`)
      expect(answer.status).toBe(200)
      return answer.data.tasks[0]
    }
    /** The order a message handed to the provider is about (its data names it). */
    const orderOf = (n: { data?: unknown }) => (n.data as { order?: { id?: string } } | null)?.order?.id
    const mailTo = (email: string, template?: string) =>
      testMailbox().sent.filter((n) => n.to === email && (!template || n.template === template))
    const handOver = (taskRowId: string, body: unknown) =>
      admin.post<{ task?: TaskView; message?: string; retry_at?: string }>(
        `/admin/lastmile/tasks/${taskRowId}/hand-over`,
        body
      )
    const fulfillmentOf = async (orderId: string) => {
      const { data } = await getContainer()
        .resolve(ContainerRegistrationKeys.QUERY)
        .graph({
          entity: "order",
          fields: [
            "fulfillments.id",
            "fulfillments.data",
            "fulfillments.shipped_at",
            "fulfillments.delivered_at",
            "fulfillments.canceled_at",
          ],
          filters: { id: orderId },
        })
      return (data[0]?.fulfillments ?? [])[0] as {
        id: string
        data: Record<string, unknown>
        shipped_at: string | null
        delivered_at: string | null
        canceled_at: string | null
      }
    }
    /** The store's closing time (23:59, open every day) `days` calendar days after `from`, London time. */
    const endOfDayAfter = (from: string, days: number) =>
      DateTime.fromISO(from, { zone: ZONE })
        .plus({ days })
        .set({ hour: 23, minute: 59, second: 0, millisecond: 0 })
        .toMillis()
    const ratesOf = async (cartId: string, query = "") => {
      const answer = await shop.get<LastmileRatesResponse>(`/store/lastmile/rates?cart_id=${cartId}${query}`)
      expect(answer.status).toBe(200)
      return answer.data
    }

    it("shows a ready collection's collect-by and code to its shopper, never to anyone else, and hands it over by code once", async () => {
      const placed = await collectionOrder()
      expect((await booking(placed.id)).collection).toBeNull()
      await makeReady(placed)

      // The order page: until when, and the code the store checks.
      const { collection } = await booking(placed.id)
      expect(collection).toMatchObject({ collected: false, expired: false, store: { name: "Brixton store" } })
      const code = collection!.code!
      expect(code).toMatch(new RegExp(`^[${CODE_ALPHABET}]{6}$`))
      // Held 7 open days (open every day) to the store's closing time (23:59 London).
      expect(Date.parse(collection!.collect_by!)).toBe(endOfDayAfter(collection!.ready_at, 7))
      // The ready email: the code in words and as a QR image; the text message: the code and the date.
      const [ready] = mailTo(placed.email, "lastmile-collection-ready")
      const spaced = `${code.slice(0, 3)} ${code.slice(3)}`
      expect(ready.content?.text).toContain(`Your collection code is ${spaced}.`)
      expect(ready.content?.text).toMatch(/Please collect it by 23:59 on \w+ \d+ \w+\./)
      expect(ready.content?.html).toMatch(/<img src="data:image\/png;base64,[A-Za-z0-9+/=]+" width="192"/)
      // The words carry the code; the data Medusa keeps on the notification, which any admin reads, does not.
      expect(ready.data?.collection).toMatchObject({ code: null, code_text: null, qr_image: null })
      const kept = await admin.get<{ notifications: unknown[] }>(
        `/admin/notifications?to=${encodeURIComponent(placed.email)}&limit=100`
      )
      expect(kept.data.notifications.length).toBeGreaterThan(0)
      expect(JSON.stringify(kept.data)).not.toContain(code)
      const [text] = testMailbox().sent.filter(
        (n) => orderOf(n) === placed.id && n.template === "lastmile-collection-ready-sms"
      )
      expect(text?.content?.text).toContain(`Code ${spaced}.`)
      // Nowhere else: not in fulfillment data (public), not in the merchant's order view, not in the booked message.
      expect(JSON.stringify(await fulfillmentOf(placed.id))).not.toContain(code)
      const view = await taskView(placed.id)
      expect(JSON.stringify(view)).not.toContain(code)
      expect(view.collection).toMatchObject({ can_hand_over: true, can_extend: true, expired: false })
      expect(mailTo(placed.email, "lastmile-collection-booked")[0].content?.text).not.toContain(spaced)
      // Medusa's pickup goes from awaiting to picked up: a ready collection is not marked shipped.
      expect((await fulfillmentOf(placed.id)).shipped_at).toBeNull()

      // A wrong code is a 400 in words, four times; the fifth locks Hand over by code (429), the right one too.
      for (let i = 0; i < 4; i++) {
        const wrong = await handOver(placed.task.id, { code: "WWWWWW" })
        expect([wrong.status, wrong.data.message]).toEqual([400, "That code does not match"])
      }
      const fifth = await handOver(placed.task.id, { code: "WWWWWW" })
      expect(fifth.status).toBe(429)
      expect(Number(fifth.headers["retry-after"])).toBeGreaterThan(14 * 60)
      const locked = await handOver(placed.task.id, { code })
      expect(locked.status).toBe(429)
      expect((await taskView(placed.id)).collection?.locked_until).toBe(locked.data.retry_at)
      expect((await fulfillmentOf(placed.id)).delivered_at).toBeNull()

      // Fifteen minutes later (the wrong codes moved back in the row), the right one, as typed at a counter.
      const row = await tasks().retrieveLastmileTask(placed.task.id)
      const held = row.collection as { wrong_codes: string[] }
      const earlier = held.wrong_codes.map((at) => new Date(Date.parse(at) - 16 * 60_000).toISOString())
      await tasks().updateLastmileTasks({ id: row.id, collection: { ...held, wrong_codes: earlier } })
      const right = await handOver(placed.task.id, { code: ` ${spaced.toLowerCase()} ` })
      expect(right.status).toBe(200)
      expect(right.data.task?.collection?.handed_over).toMatchObject({ via: "code", reason: null })
      expect(right.data.task?.history.at(-1)).toMatchObject({
        value: "HANDED_OVER",
        source: "admin",
        detail: expect.stringMatching(/with the shopper's collection code by .+@/),
      })
      const delivered = (await fulfillmentOf(placed.id)).delivered_at
      expect(delivered).not.toBeNull()
      await until(placed.task.id, ["collection_collected"])
      expect((await booking(placed.id)).collection).toMatchObject({ collected: true, code: null })

      // The service says collected later: nothing changes (no history entry, no event), nor is the shopper told twice.
      const checked = (await tasks().retrieveLastmileTask(placed.task.id)).last_checked_at
      expect(simulator.advanceTask(Number(placed.task.task_id)).status.value).toBe("COLLECTED_BY_CUSTOMER")
      const read = await waitForTask(getContainer(), placed.id, (t) => String(t.last_checked_at) !== String(checked))
      expect(read.service_status).not.toBe("COLLECTED_BY_CUSTOMER")
      expect(read.status_history.entries.at(-1)?.value).toBe("HANDED_OVER")
      await simulator.webhooks.idle()
      await notifyDueTasks(getContainer(), { now: new Date(Date.now() + 60_000) })
      expect(mailTo(placed.email, "lastmile-collection-collected")).toHaveLength(1)
      expect((await fulfillmentOf(placed.id)).delivered_at).toEqual(delivered)
      const again = await handOver(placed.task.id, { code })
      expect([again.status, again.data.message]).toEqual([400, "This collection has been collected already."])
    })

    it("tells the merchant once when a hold is up; Extend moves the collect-by and tells the shopper; Cancel puts the stock back", async () => {
      const placed = await collectionOrder()
      await makeReady(placed)
      // The hold began nine days ago and ended an hour ago (the row's times moved back).
      const row = await tasks().retrieveLastmileTask(placed.task.id)
      const held = row.collection as { ready_at: string; collect_by: string }
      const past = {
        ready_at: new Date(Date.now() - 9 * DAY).toISOString(),
        collect_by: new Date(Date.now() - 3_600_000).toISOString(),
      }
      await tasks().updateLastmileTasks({ id: row.id, collection: { ...held, ...past }, notify_at: new Date() })

      const up = await notifyDueTasks(getContainer(), { now: new Date() })
      expect(up[placed.task.id]?.sent).toEqual(
        expect.arrayContaining(["merchant_not_collected", "merchant_not_collected|to:ops@shop.example"])
      )
      expect(
        (await notifyDueTasks(getContainer(), { now: new Date(Date.now() + 60_000) }))[placed.task.id]
      ).toBeUndefined()
      expect(
        mailTo("ops@shop.example", "lastmile-merchant-not-collected").filter((n) => orderOf(n) === placed.id)
      ).toHaveLength(1)
      expect((await taskView(placed.id)).collection).toMatchObject({ expired: true, can_extend: true })
      expect((await booking(placed.id)).collection).toMatchObject({ expired: true })

      // Extend: a bad number of days is a 400 naming the field; 3 open days from today; the shopper told the date.
      expect((await admin.post(`/admin/lastmile/tasks/${placed.task.id}/extend`, { days: 0 })).status).toBe(400)
      expect((await admin.post(`/admin/lastmile/tasks/${placed.task.id}/extend`, { days: 31 })).status).toBe(400)
      const extended = await admin.post<{ task: TaskView }>(`/admin/lastmile/tasks/${placed.task.id}/extend`, {
        days: 3,
      })
      expect(extended.status).toBe(200)
      const collection = extended.data.task.collection!
      expect(collection.expired).toBe(false)
      expect(Date.parse(collection.collect_by!)).toBe(endOfDayAfter(new Date().toISOString(), 3))
      expect(collection.extensions).toEqual([expect.objectContaining({ days: 3, collect_by: collection.collect_by })])
      await until(placed.task.id, ["collection_extended"])
      const [told] = mailTo(placed.email, "lastmile-collection-extended")
      expect(told.content?.subject).toBe(`More time to collect your order #${placed.display_id}`)
      expect(told.content?.text).toMatch(/until 23:59 on \w+ \d+ \w+\./)
      expect(told.content?.text).toContain("Your collection code is still")
      // The new hold ends: the merchant is told again, once.
      const secondUp = await notifyDueTasks(getContainer(), {
        now: new Date(Date.parse(collection.collect_by!) + 60_000),
      })
      expect(secondUp[placed.task.id]?.sent).toContain("merchant_not_collected:2")

      // Nobody came: cancelled as not collected, Medusa's fulfillment cancelled (its stock back), recorded.
      const delivery = await collectionOrder("store-clapham")
      const cancel = await admin.post(`/admin/lastmile/tasks/${delivery.task.id}/cancel`, {
        confirm: true,
        reason: "not_collected",
      })
      expect(cancel.status).toBe(200)
      expect((await taskView(delivery.id)).cancellation).toMatchObject({ by: "merchant", reason: "not_collected" })
      expect((await fulfillmentOf(delivery.id)).canceled_at).not.toBeNull()
      // A delivery is never cancelled "as not collected".
      const nextDay = await (async () => {
        const { cart } = await cartOf()
        await shop.post(`/store/carts/${cart.id}/shipping-methods`, { option_id: seed.options.nextDay })
        const order = await placeOrder(shop, cart.id)
        return waitForTask(getContainer(), order.id)
      })()
      const wrongKind = await admin.post(`/admin/lastmile/tasks/${nextDay.id}/cancel`, {
        confirm: true,
        reason: "not_collected",
      })
      expect(wrongKind.status).toBe(400)
      expect((await admin.post(`/admin/lastmile/tasks/${nextDay.id}/extend`, { days: 2 })).status).toBe(400)
      expect((await handOver(nextDay.id, { code: "ACE479" })).status).toBe(400)
    })

    it("hands over without the code when the merchant says why, and catches up a pick-up marked in Medusa's dashboard", async () => {
      const placed = await collectionOrder()
      await makeReady(placed)
      expect((await handOver(placed.task.id, { override_reason: "x" })).status).toBe(400)
      const override = await handOver(placed.task.id, { override_reason: "Lost phone; checked photo ID\u202e" })
      expect(override.status).toBe(200)
      expect(override.data.task?.collection?.handed_over).toMatchObject({
        via: "override",
        reason: "Lost phone; checked photo ID",
      })
      expect(override.data.task?.history.at(-1)?.detail).toContain("without the code")
      await until(placed.task.id, ["collection_collected"])

      // The dashboard's "Mark as picked up" (its body: the notification switch).
      const other = await collectionOrder()
      await makeReady(other)
      const fulfillment = await fulfillmentOf(other.id)
      const marked = await admin.post(`/admin/orders/${other.id}/fulfillments/${fulfillment.id}/mark-as-delivered`, {
        no_notification: false,
      })
      expect(marked.status).toBe(200)
      const caught = await waitForTask(getContainer(), other.id, (t) => t.tracking_state === "delivered")
      expect(caught.status_history.entries.at(-1)).toMatchObject({ value: "HANDED_OVER", source: "admin" })
      await until(other.task.id, ["collection_collected"])
      expect((await taskView(other.id)).collection?.handed_over).toMatchObject({ via: "medusa" })
      // Its hold ending later tells the merchant nothing.
      const later = await notifyDueTasks(getContainer(), { now: new Date(Date.now() + 9 * DAY) })
      expect(later[other.task.id]?.sent ?? []).not.toContain("merchant_not_collected")
    })

    it("holds a ready collection past a date its store then closes, and tells its shopper once", async () => {
      const placed = await collectionOrder()
      await makeReady(placed)
      const before = (await taskView(placed.id)).collection!.collect_by!
      const closedOn = DateTime.fromISO(before, { zone: ZONE }).toISODate()!
      const close = () =>
        admin.post(`/admin/lastmile/stock-locations/${brixton()}/pickup`, { closed_dates: [closedOn] })
      expect((await close()).status).toBe(200)
      // The store now closes on the day the hold ended: held to the next open day's closing (open every day here).
      const moved = (await taskView(placed.id)).collection!
      expect(Date.parse(moved.collect_by!)).toBe(endOfDayAfter(before, 1))
      expect(moved.extensions).toHaveLength(1)
      await until(placed.task.id, ["collection_extended"])
      // Saved again, nothing moves twice.
      expect((await close()).status).toBe(200)
      expect((await taskView(placed.id)).collection!.extensions).toHaveLength(1)
      expect(mailTo(placed.email, "lastmile-collection-extended")).toHaveLength(1)
      await admin.post(`/admin/lastmile/stock-locations/${brixton()}/pickup`, { closed_dates: [] })
    })

    it("puts a store's own words on its rate row and messages, and moves a readiness off its closed dates", async () => {
      const pickupOf = (body: unknown) =>
        admin.post<StockLocationPickup & { message?: string }>(
          `/admin/lastmile/stock-locations/${brixton()}/pickup`,
          body
        )
      // Bad input names its field and changes nothing.
      expect((await pickupOf({ instructions: "x".repeat(501) })).data.message).toContain("instructions")
      expect((await pickupOf({ closed_dates: ["2026-02-30"] })).data.message).toContain("closed_dates")
      const farAhead = DateTime.utc().plus({ years: 3, days: 2 }).toISODate()!
      expect((await pickupOf({ closed_dates: [farAhead] })).data.message).toContain(
        "closed_dates can be at most 3 years ahead"
      )
      expect((await pickupOf({ position: { latitude: 91, longitude: 0 } })).data.message).toContain("latitude")
      expect(
        (await admin.post(`/admin/lastmile/stock-locations/sloc_missing/pickup`, { instructions: "x" })).status
      ).toBe(404)

      const { cart } = await cartOf()
      const before = (await ratesOf(cart.id)).rates.find((r) => r.stock_location_id === brixton())!
      expect(before.instructions).toBeNull()
      // Today and tomorrow closed (whichever the service's readiness falls on): ready the day after, from opening.
      const today = DateTime.now().setZone(ZONE)
      const closed = [today.toISODate()!, today.plus({ days: 1 }).toISODate()!]
      const kept = await pickupOf({
        instructions: "Desk at the back,\n by the fitting rooms.\u200b",
        // A date gone by is dropped, so past holidays never fill the list.
        closed_dates: [closed[1], closed[0], closed[0], "2025-12-25"],
      })
      expect(kept.status).toBe(200)
      expect(kept.data).toEqual({
        instructions: "Desk at the back, by the fitting rooms.",
        closed_dates: closed,
        position: null,
      })
      expect(
        (await admin.get<{ pickup: StockLocationPickup }>(`/admin/lastmile/stock-locations/${brixton()}`)).data.pickup
      ).toEqual(kept.data)

      // The same cart, read again at once: the catalogue is read again after the location's change.
      const row = (await ratesOf(cart.id)).rates.find((r) => r.stock_location_id === brixton())!
      expect(row.instructions).toBe("Desk at the back, by the fitting rooms.")
      const opens = today.plus({ days: 2 }).startOf("day")
      expect(Date.parse(row.window!.from)).toBe(opens.toMillis())
      expect(row.description).toBe(
        `Ready to collect on ${opens.setLocale("en-GB").toFormat("cccc d LLLL")} from 00:00: the store is closed on ${today.setLocale("en-GB").toFormat("cccc d LLLL")} and ${today.plus({ days: 1 }).setLocale("en-GB").toFormat("cccc d LLLL")}.`
      )

      // Chosen and booked: the method's store, the booked message and the ready one carry the store's words.
      const chosen = await shop.post<{ cart: { shipping_methods: { data: { store?: { instructions?: string } } }[] } }>(
        `/store/carts/${cart.id}/shipping-methods?fields=+shipping_methods.data`,
        { option_id: seed.options.collection["store-brixton"] }
      )
      expect(chosen.data.cart.shipping_methods[0].data.store?.instructions).toBe(
        "Desk at the back, by the fitting rooms."
      )
      const placed = await placeOrder(shop, cart.id)
      const task = await waitForTask(getContainer(), placed.id)
      await until(task.id, ["collection_booked"])
      const [bookedMail] = testMailbox().sent.filter(
        (n) => orderOf(n) === placed.id && n.template === "lastmile-collection-booked"
      )
      expect(bookedMail.content?.text).toContain("From the store: Desk at the back, by the fitting rooms.")
      expect(bookedMail.content?.text).toContain(
        `It should be ready to collect from 00:00 on ${opens.setLocale("en-GB").toFormat("cccc d LLLL")}.`
      )
      expect((task as unknown as { quoted_rate: { window: { from: string } } }).quoted_rate.window.from).toBe(
        row.window!.from
      )

      // Cleared again: later tests see the store as it was.
      expect((await pickupOf({ instructions: null, closed_dates: [] })).data).toEqual({
        instructions: null,
        closed_dates: [],
        position: null,
      })
    })

    it("lists the nearest stores first: by distance with near, else the shopper's postcode district and area", async () => {
      const { cart } = await cartOf()
      // Without positions: the shopper is in SW1A, Brixton (SW9) and Clapham (SW4) share the area, the rest by name.
      const byPostcode = (await ratesOf(cart.id)).rates.filter((r) => r.type === "collection")
      expect(byPostcode.slice(0, 2).map((r) => r.name)).toEqual([
        "Collect from Brixton store",
        "Collect from Clapham store",
      ])
      expect(byPostcode.every((r) => r.distance_km === null)).toBe(true)
      expect((await shop.get(`/store/lastmile/rates?cart_id=${cart.id}&near=91,0`)).status).toBe(400)

      const positions: [string, number, number][] = [
        ["store-camden", 51.5392, -0.1426],
        ["store-greenwich", 51.4826, -0.0077],
        ["store-covent-garden", 51.5129, -0.1243],
      ]
      for (const [store, latitude, longitude] of positions) {
        const set = await admin.post(`/admin/lastmile/stock-locations/${seed.storeLocations[store]}/pickup`, {
          position: { latitude, longitude },
        })
        expect(set.status).toBe(200)
      }
      // Near Trafalgar Square: Covent Garden (under a kilometre), Camden, Greenwich; then those without a position.
      const near = (await ratesOf(cart.id, "&near=51.5080,-0.1281")).rates.filter((r) => r.type === "collection")
      expect(near.slice(0, 3).map((r) => r.name)).toEqual([
        "Collect from Covent Garden store",
        "Collect from Camden store",
        "Collect from Greenwich store",
      ])
      expect(near[0].distance_km).toBeGreaterThan(0.3)
      expect(near[0].distance_km).toBeLessThan(1)
      expect(near[1].distance_km).toBeLessThan(near[2].distance_km!)
      expect(near.slice(3).every((r) => r.distance_km === null)).toBe(true)
      expect(near.slice(3, 5).map((r) => r.name)).toEqual(["Collect from Brixton store", "Collect from Clapham store"])
      for (const [store] of positions) {
        await admin.post(`/admin/lastmile/stock-locations/${seed.storeLocations[store]}/pickup`, { position: null })
      }
    })

    it("holds a collection by the store's hours at the service, the new ones once the admin has read them", async () => {
      // The merchant shortens Brixton's hours at the service while the app runs: 09:00–17:00, closed on Sundays;
      // the service sends hours in another shape than the default (the spec does not show theirs).
      simulator.configure({ hoursShape: "list" })
      simulator.updateLocation("store-brixton", {
        operatingHours: londonHours({ sun: null, mon: { open: "09:00", close: "17:00" } }),
      })
      expect(
        (simulator.state.publicLocation(simulator.location("store-brixton")).operatingHours as { days: unknown[] }).days
      ).toContainEqual({ dayOfWeek: "SUNDAY", closed: true })
      // Opening Settings → Lastmile reads the service's locations: the hours held are those from then on.
      expect((await admin.get("/admin/lastmile")).status).toBe(200)
      const placed = await collectionOrder()
      await makeReady(placed)
      const { collection } = await booking(placed.id)
      const ready = DateTime.fromISO(collection!.ready_at, { zone: ZONE })
      const by = DateTime.fromISO(collection!.collect_by!, { zone: ZONE })
      // Seven open days after the day it was ready, Sundays not counted, to that day's closing time.
      let day = ready.startOf("day")
      for (let open = 0; open < 7;) {
        day = day.plus({ days: 1 })
        open += day.weekday === 7 ? 0 : 1
      }
      expect(by.toISODate()).toBe(day.toISODate())
      expect(by.weekday).not.toBe(7)
      expect(by.toFormat("HH:mm")).toBe(day.weekday === 1 ? "17:00" : "18:00")
      // A collection made ready earlier keeps the collect-by it was told.
      simulator.updateLocation("store-brixton", { operatingHours: londonTestLocations()[4].operatingHours })
      expect((await admin.get("/admin/lastmile")).status).toBe(200)
      expect((await booking(placed.id)).collection?.collect_by).toBe(collection!.collect_by)
      simulator.configure({ hoursShape: "days" })
    })
  },
})
