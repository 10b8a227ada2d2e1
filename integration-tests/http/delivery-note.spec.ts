/**
 * The shopper's note to the courier with `send_delivery_note: true`, through the store and admin APIs as they are used
 * (decisions 59, 60); booking.spec.ts has the default (`false`): the note is shown, never sent.
 */
import { medusaIntegrationTestRunner } from "../helpers/medusa-app"
import type { DeliveryNoteView, TaskView } from "../../src/lib/contracts/admin-api"
import { defaultConfig } from "../../packages/simulator/src"
import type { SeededStore } from "../helpers/seed-store"
import { londonTestLocations, useLondonStore } from "../helpers/london-store"
import { useSimulator } from "../helpers/simulator"
import { type Storefront, londonShopper, placeOrder } from "../helpers/storefront"
import { lastmileTasks, orderFulfillments, waitForTask } from "../helpers/orders"
import { adminFor } from "../helpers/admin"

jest.setTimeout(120_000)

const { simulator } = useSimulator({ locations: londonTestLocations() }, { LASTMILE_SEND_DELIVERY_NOTE: "true" })

/** 280 characters: the most a note may hold, with a gate code a stranger must not read on a parcel. */
const NOTE = `Gate code 4821. ${"Leave it with the neighbour at no. 12 if nobody answers. ".repeat(5)}`.slice(0, 280)

type Method = { shipping_option_id: string; amount: number; data: Record<string, unknown> }
type CartAnswer = { cart: { id: string; shipping_methods: Method[] } }

medusaIntegrationTestRunner({
  testSuite: ({ api, getContainer }) => {
    let seed: SeededStore
    let shop: Storefront
    const london = useLondonStore(simulator, { api, getContainer })
    beforeAll(() => {
      ;({ seed, shop } = london)
    })

    const [standard] = defaultConfig().deliveryServices
    const eco = { ...standard, rateCode: "ND-ECO", name: "Next day eco", price: 395, windowFrom: "12:00" }
    beforeEach(() => simulator.configure({ deliveryServices: [standard, eco], orderNote: "accept" }))
    afterAll(() => simulator.configure({ deliveryServices: defaultConfig().deliveryServices }))

    const newCart = () =>
      shop.createCart({
        region_id: seed.regions.gbp,
        email: "ada@example.com",
        shipping_address: londonShopper,
        items: [{ variant_id: seed.variants.tee, quantity: 1 }],
      })
    const choose = (cartId: string, optionId: string, data?: Record<string, unknown>) =>
      shop.post<CartAnswer & { message?: string }>(
        `/store/carts/${cartId}/shipping-methods?fields=+shipping_methods.data`,
        data ? { option_id: optionId, data } : { option_id: optionId }
      )
    const adminView = async (orderId: string) => {
      const admin = await adminFor(api, getContainer())
      const answer = await admin.get<{ tasks: TaskView[]; delivery_note: DeliveryNoteView | null }>(
        `/admin/lastmile/orders/${orderId}`
      )
      expect(answer.status).toBe(200)
      return answer.data
    }
    const notesSent = (orderId: string) =>
      simulator
        .requests("bookDelivery")
        .map((r) => r.body as { order: { merchantOrderId: string; note?: string } })
        .filter((body) => body.order.merchantOrderId === orderId)
        .map((body) => body.order.note ?? null)

    it("answers a note of 281 characters with a 400 naming the limit, and puts nothing on the cart", async () => {
      const cart = await newCart()
      const refused = await choose(cart.id, seed.options.nextDay, { rate_code: "ND-ECO", delivery_note: `${NOTE}!` })

      expect(refused.status).toBe(400)
      expect(refused.data.message).toBe(
        "delivery_note is 281 characters long: a note to the courier can be at most 280 characters."
      )
      const read = await shop.get<CartAnswer>(`/store/carts/${cart.id}?fields=+shipping_methods.data`)
      expect(read.data.cart.shipping_methods).toEqual([])
    })

    it("refuses a note with a store, which has no courier to read it", async () => {
      const cart = await newCart()
      const refused = await choose(cart.id, seed.options.collection["store-covent-garden"], { delivery_note: NOTE })
      expect(refused.status).toBe(400)
      expect(refused.data.message).toContain("a collection from a store has no courier")
    })

    it("keeps a note of 280 through a new choice of rate, shows it to the merchant, sends it as order.note, and puts it on no fulfillment", async () => {
      const cart = await newCart()
      const chosen = await choose(cart.id, seed.options.nextDay, {
        rate_code: "ND-ECO",
        // Line breaks read as spaces; a right-to-left override, which would show the code reversed, goes.
        delivery_note: NOTE.replace("Gate code 4821.", "Gate code \u202e4821\u202c.\r\n"),
      })
      expect(chosen.status).toBe(200)
      const noted = chosen.data.cart.shipping_methods[0]
      expect(noted.data).toMatchObject({ rateCode: "ND-ECO", deliveryNote: NOTE })

      // The shopper picks another rate without touching the note: Medusa replaces the method, the note stays.
      const rechosen = await choose(cart.id, seed.options.nextDay, { rate_code: "NEXT_DAY" })
      expect(rechosen.status).toBe(200)
      expect(rechosen.data.cart.shipping_methods).toEqual([
        expect.objectContaining({
          amount: 4.95,
          data: expect.objectContaining({ rateCode: "NEXT_DAY", deliveryNote: NOTE }),
        }),
      ])

      const order = await placeOrder(shop, cart.id)
      const task = await waitForTask(getContainer(), order.id)
      expect(task.status).toBe("booked")
      expect(notesSent(order.id)).toEqual([NOTE])
      expect(simulator.tasks().find((t) => t.merchantOrderId === order.id)?.note).toBe(NOTE)

      const view = await adminView(order.id)
      expect(view.delivery_note).toEqual({ text: NOTE, to_service: "sent", send_enabled: true })

      // Public data: the store API's order holds the note on its method (like the address), on no fulfillment.
      const stored = await shop.get<{ order: { shipping_methods: Method[]; fulfillments: unknown[] } }>(
        `/store/orders/${order.id}?fields=*fulfillments,+shipping_methods.data`
      )
      expect(stored.data.order.shipping_methods[0].data.deliveryNote).toBe(NOTE)
      expect(stored.data.order.fulfillments).toHaveLength(1)
      expect(JSON.stringify(stored.data.order.fulfillments)).not.toContain("4821")
      // Medusa creates a fulfillment with its method's data: the provider clears the note from it.
      const [fulfillment] = await orderFulfillments(getContainer(), order.id)
      expect(fulfillment.data).toMatchObject({ taskId: Number(task.task_id), deliveryNote: null })
      expect(JSON.stringify([fulfillment.data, fulfillment.labels])).not.toContain("4821")
    })

    it("books without the note when the service refuses the field, and tells the merchant, never repeating the note", async () => {
      simulator.configure({ orderNote: "refuse" })
      const cart = await newCart()
      expect((await choose(cart.id, seed.options.nextDay, { rate_code: "ND-ECO", delivery_note: NOTE })).status).toBe(
        200
      )
      const order = await placeOrder(shop, cart.id)
      const task = await waitForTask(getContainer(), order.id)

      expect(task).toMatchObject({ status: "booked", attempts: 1, rate_code: "ND-ECO" })
      // Refused with the note (400), booked at once without it: one task, no retry later.
      expect(notesSent(order.id)).toEqual([NOTE, null])
      expect(simulator.tasks().filter((t) => t.merchantOrderId === order.id)).toHaveLength(1)

      const view = await adminView(order.id)
      expect(view.delivery_note).toEqual({ text: NOTE, to_service: "refused", send_enabled: true })
      expect(view.tasks[0].history.map((entry) => entry.detail)).toContain(
        "The service refused the shopper's note to the courier (400), so the delivery was booked without it: pass the note on to the courier, or set send_delivery_note to false."
      )
      // What the plugin keeps of the booking holds no word of the note (the service's refusal is not kept either).
      const [row] = await lastmileTasks(getContainer()).listLastmileTasks({ merchant_order_id: order.id })
      expect(JSON.stringify(row)).not.toContain("4821")
    })

    it("removes the note when the shopper empties it", async () => {
      const cart = await newCart()
      await choose(cart.id, seed.options.nextDay, { delivery_note: NOTE })
      const emptied = await choose(cart.id, seed.options.nextDay, { rate_code: "ND-ECO", delivery_note: "  " })
      expect(emptied.status).toBe(200)
      expect(emptied.data.cart.shipping_methods[0].data).not.toHaveProperty("deliveryNote")
      const order = await placeOrder(shop, cart.id)
      await waitForTask(getContainer(), order.id)
      expect(notesSent(order.id)).toEqual([null])
      expect((await adminView(order.id)).delivery_note).toBeNull()
    })
  },
})
