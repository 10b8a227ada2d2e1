/**
 * The demo's month of delivery history for Delivery insights: orders placed and moved through the real flow, then
 * aged in SQL to the days they stand for, each marked as demo data (`source: "demo"`, counted in the page's badge).
 */
import { Client } from "@medusajs/framework/pg"
import { DEMO_HISTORY_SOURCE } from "../src/lib/insights/task-facts"
import type { InsightsReport } from "../src/lib/contracts/insights-api"
import type { TaskView } from "../src/lib/contracts/admin-api"
import { HttpError, MedusaHttp, adminLogin } from "../integration-tests/system/lib/http-store"
import { SAMPLE_SHOPPER, toCartAddress } from "./storefront/lib/shopper"

export interface DemoHistoryOptions {
  medusaUrl: string
  simulatorUrl: string
  databaseUrl: string
  publishableKey: string
  regionId: string
  admin: { email: string; password: string }
  say: (line: string) => void
}

type Outcome = "early" | "on_time" | "late" | "collected" | "collected_late" | "not_collected" | "refused"

interface Planned {
  daysAgo: number
  kind: "delivery" | "collection"
  outcome: Outcome
  store: number
  quantity: number
}

const HOUR = 3_600_000
const DAY = 24 * HOUR

/** A small deterministic generator: the same history every run. */
function random(seed: number): () => number {
  let state = seed
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648
    return state / 2_147_483_648
  }
}

/** 26 orders over the last four weeks: mostly on time, some early, some late, collections collected or not. */
function plan(): Planned[] {
  const next = random(29)
  const orders: Planned[] = []
  for (let i = 0; i < 24; i++) {
    const daysAgo = 27 - Math.floor((i * 27) / 24)
    const collection = i % 3 === 2
    const roll = next()
    const outcome: Outcome = collection
      ? i === 5 || i === 17
        ? "not_collected"
        : i === 11
          ? "collected_late"
          : "collected"
      : roll < 0.12
        ? "early"
        : roll < 0.8
          ? "on_time"
          : "late"
    orders.push({ daysAgo, kind: collection ? "collection" : "delivery", outcome, store: i, quantity: 1 + (i % 2) })
  }
  orders.push({ daysAgo: 9, kind: "delivery", outcome: "refused", store: 0, quantity: 1 })
  orders.push({ daysAgo: 3, kind: "delivery", outcome: "refused", store: 0, quantity: 1 })
  return orders
}

async function inBatches<T, R>(items: T[], size: number, run: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results: R[] = []
  for (let i = 0; i < items.length; i += size) {
    results.push(...(await Promise.all(items.slice(i, i + size).map((item, j) => run(item, i + j)))))
  }
  return results
}

export async function seedDemoHistory(options: DemoHistoryOptions): Promise<{ orders: number }> {
  const store = new MedusaHttp(options.medusaUrl, { "x-publishable-api-key": options.publishableKey })
  const sim = new MedusaHttp(options.simulatorUrl)
  const started = Date.now()
  const admin = await adminLogin(options.medusaUrl, options.admin.email, options.admin.password)
  const before = await admin.get<InsightsReport>("/admin/lastmile/insights")
  if (before.demo_tasks > 0) {
    // A demo database kept from an earlier run (DB_NAME) has its month already.
    options.say("demo history: already there")
    return { orders: 0 }
  }
  const counters = await countersOfToday(options.databaseUrl)
  await restockTees(admin)
  const { products } = await store.get<{ products: { title: string; variants: { id: string }[] }[] }>(
    "/store/products?fields=title,*variants"
  )
  // Orders are of tees, which every store stocks; abandoned carts hold mugs too, which some stores lack.
  const tee = (products.find((p) => /tee/i.test(p.title)) ?? products[0]).variants[0].id
  const variants = [tee, ...products.flatMap((p) => p.variants.map((v) => v.id)).filter((id) => id !== tee)]
  const address = toCartAddress(SAMPLE_SHOPPER)
  /** A cart of `quantity` of the `variant`-th product (0: the tee). */
  const cart = async (extra: Record<string, unknown> = {}, quantity = 1, variant = 0) =>
    (
      await store.post<{ cart: { id: string } }>("/store/carts", {
        region_id: options.regionId,
        email: "demo-history@lastmile.demo",
        shipping_address: address,
        items: [{ variant_id: variants[variant % variants.length], quantity }],
        ...extra,
      })
    ).cart.id
  const rates = (cartId: string) =>
    store.get<{ rates: { shipping_option_id: string; type: string; available: boolean }[] }>(
      `/store/lastmile/rates?cart_id=${cartId}`
    )
  // What this store offers a London shopper now: the options the history's orders choose from.
  const probe = await cart()
  const offered = new Set((await rates(probe)).rates.filter((r) => r.available).map((r) => r.shipping_option_id))
  const choices = before.offers.by_option.filter((o) => o.option_id && offered.has(o.option_id))
  const delivery = choices.find((o) => o.kind === "delivery")
  const stores = choices.filter((o) => o.kind === "collection")
  if (!delivery || !stores.length) {
    options.say("demo history skipped: the store offers no lastmile delivery and collection yet")
    return { orders: 0 }
  }

  type Option = (typeof choices)[number]
  /** Stores whose stock in Medusa ran out (a store the merchant emptied): the next one takes their orders. */
  const soldOut = new Set<string>()
  const checkoutWith = async (order: Planned, option: Option): Promise<string> => {
    const id = await cart({}, order.quantity)
    await rates(id)
    await store.post(`/store/carts/${id}/shipping-methods`, { option_id: option.option_id })
    const { payment_collection } = await store.post<{ payment_collection: { id: string } }>(
      "/store/payment-collections",
      { cart_id: id }
    )
    await store.post(`/store/payment-collections/${payment_collection.id}/payment-sessions`, {
      provider_id: "pp_system_default",
    })
    const completed = await store.post<{ order: { id: string } }>(`/store/carts/${id}/complete`, {})
    return completed.order.id
  }
  const placeOrder = async (order: Planned): Promise<{ id: string; option: Option }> => {
    if (order.kind === "delivery") {
      return { id: await checkoutWith(order, delivery), option: delivery }
    }
    for (let n = 0; n < stores.length; n++) {
      const option = stores[(order.store + n) % stores.length]
      if (soldOut.has(option.option_id!)) {
        continue
      }
      try {
        return { id: await checkoutWith(order, option), option }
      } catch (error) {
        // Medusa refuses to complete a cart its stock at that store cannot serve.
        if (!(error instanceof HttpError) || error.status !== 400) {
          throw error
        }
        soldOut.add(option.option_id!)
      }
    }
    throw new Error("demo history: no store has a tee left in Medusa's stock")
  }
  const taskOf = async (orderId: string, done: (t: TaskView) => boolean): Promise<TaskView> => {
    const deadline = Date.now() + 60_000
    for (;;) {
      const [task] = (await admin.get<{ tasks: TaskView[] }>(`/admin/lastmile/orders/${orderId}`)).tasks
      if (task && done(task)) {
        return task
      }
      if (Date.now() > deadline) {
        throw new Error(`demo history: the task of ${orderId} did not settle: ${JSON.stringify(task)}`)
      }
      await new Promise((resolve) => setTimeout(resolve, 200))
    }
  }
  const settled = (t: TaskView) => !["pending", "booking"].includes(t.status)

  const orders = plan()
  const booked = orders.filter((o) => o.outcome !== "refused")
  const placed = await inBatches(booked, 4, async (order) => ({ order, ...(await placeOrder(order)) }))
  // Refusals one at a time: a fault answers the next booking the service receives.
  for (const [n, order] of orders.filter((o) => o.outcome === "refused").entries()) {
    await sim.post("/__sim/faults", { operation: "bookDelivery", kind: "status", status: n ? 400 : 422, times: 1 })
    placed.push({ order, ...(await placeOrder(order)) })
    await taskOf(placed[placed.length - 1].id, settled)
  }
  // Carts priced and left: what was offered and not chosen, an address not served and a phone missing among them.
  const abandoned = [
    probe,
    ...(await inBatches([0, 1, 2, 3, 4, 5, 6, 7], 4, async (i) => {
      const id = await cart({}, 1 + (i % 3), i)
      await rates(id)
      return id
    })),
    await cart({ shipping_address: { ...address, postal_code: "ZE1 0AA" } }),
    await cart({ shipping_address: { ...address, phone: null } }),
  ]
  await rates(abandoned[abandoned.length - 2])
  await rates(abandoned[abandoned.length - 1])

  const tasks = await inBatches(placed, 6, async (p) => ({ ...p, task: await taskOf(p.id, settled) }))
  await inBatches(tasks, 6, async ({ order, id, task }) => {
    if (task.status !== "booked" || order.outcome === "refused") {
      return
    }
    const move = async (value: string, state: string) => {
      await sim.post(`/__sim/tasks/${task.task_id}/status`, { value })
      await taskOf(id, (t) => t.service_status === value && t.tracking_state === state)
    }
    if (order.kind === "delivery") {
      await move("DELIVERED", "delivered")
    } else {
      await move("READY_FOR_COLLECTION", "shipped")
      if (order.outcome !== "not_collected") {
        await move("COLLECTED_BY_CUSTOMER", "delivered")
      }
    }
  })
  // The route writes the counters first: they are all in the table now.
  await admin.get("/admin/lastmile/insights")
  await age(options.databaseUrl, {
    tasks: tasks.map(({ order, id, option }) => ({ orderId: id, order, option: counterOption(option) })),
    carts: abandoned.length,
    counters,
  })
  options.say(
    `demo history: ${placed.length} orders and ${abandoned.length} abandoned carts over four weeks (demo data), in ${Math.round((Date.now() - started) / 1000)} s`
  )
  return { orders: placed.length }
}

/**
 * A month of orders needs more tees than the demo's stores hold (Medusa
 * reserves a delivery's items at whichever location of the sales channel has
 * them), so the merchant restocks first, as in the dashboard.
 */
async function restockTees(admin: MedusaHttp): Promise<void> {
  const { inventory_items } = await admin.get<{
    inventory_items: { id: string; location_levels?: { location_id: string; stocked_quantity: number }[] }[]
  }>("/admin/inventory-items?sku=DEMO-TEE&fields=id,*location_levels")
  for (const item of inventory_items) {
    for (const level of item.location_levels ?? []) {
      await admin.post(`/admin/inventory-items/${item.id}/location-levels/${level.location_id}`, {
        stocked_quantity: level.stocked_quantity + 100,
      })
    }
  }
}

interface History {
  tasks: { orderId: string; order: Planned; option: string }[]
  carts: number
  counters: Map<string, number>
}

interface CounterRow {
  day: string
  kind: string
  fulfillment_option: string
  stock_location_id: string
  reason: string
  count: number
}

/** How the counters name an option: its fulfillment option and stock location. */
const counterOption = (o: { fulfillment_option: string; stock_location_id: string | null }) =>
  `${o.fulfillment_option}\u0000${o.stock_location_id ?? ""}`

const counterKey = (r: Omit<CounterRow, "count" | "day">) =>
  [r.kind, r.fulfillment_option, r.stock_location_id, r.reason].join("\u0000")

async function withDatabase<T>(databaseUrl: string, run: (db: Client) => Promise<T>): Promise<T> {
  const db = new Client({ connectionString: databaseUrl })
  await db.connect()
  try {
    return await run(db)
  } finally {
    await db.end()
  }
}

/** Today's offer counters, to tell the history's own counts from those made before it. */
function countersOfToday(databaseUrl: string): Promise<Map<string, number>> {
  return withDatabase(databaseUrl, async (db) => {
    const { rows } = await db.query<CounterRow>(
      "SELECT day, kind, fulfillment_option, stock_location_id, reason, count FROM lastmile_offer_count WHERE deleted_at IS NULL AND day = (SELECT max(day) FROM lastmile_offer_count)"
    )
    return new Map(rows.map((r) => [`${r.day}\u0000${counterKey(r)}`, Number(r.count)]))
  })
}

/** When, relative to its (moved) window, a parcel arrives for an outcome. */
function arrival(outcome: Outcome, window: { from: number; to: number }, next: () => number): number {
  const span = window.to - window.from
  switch (outcome) {
    case "early":
      return window.from - (0.5 + next() * 2) * HOUR
    case "late":
    case "collected_late":
      return window.to + (0.3 + next() * 3) * HOUR
    default:
      return window.from + (0.1 + next() * 0.8) * span
  }
}

async function age(databaseUrl: string, history: History): Promise<void> {
  const next = random(7)
  const now = Date.now()
  await withDatabase(databaseUrl, async (db) => {
    await db.query("BEGIN")
    const { rows } = await db.query<{
      id: string
      merchant_order_id: string
      quoted_rate: { window?: { from: string; to: string } | null; quoted_at?: string } | null
      status_history: { entries: { value: string; at: string; source?: string; phase?: string }[] }
      placed_at: Date | null
      created_at: Date
      booked_at: Date | null
    }>(
      "SELECT id, merchant_order_id, quoted_rate, status_history, placed_at, created_at, booked_at FROM lastmile_task WHERE merchant_order_id = ANY($1)",
      [history.tasks.map((t) => t.orderId)]
    )
    for (const row of rows) {
      const { order } = history.tasks.find((t) => t.orderId === row.merchant_order_id)!
      const shift = order.daysAgo * DAY
      const moved = (at: string | Date | null | undefined) =>
        at ? new Date(new Date(at).getTime() - shift).toISOString() : null
      const rate = row.quoted_rate
      const window = rate?.window
        ? { from: Date.parse(rate.window.from) - shift, to: Date.parse(rate.window.to) - shift }
        : null
      let ready: number | null = null
      const entries = row.status_history.entries.map((entry) => {
        if (!entry.source || !window) {
          return { ...entry, at: moved(entry.at)! }
        }
        if (entry.value === "READY_FOR_COLLECTION") {
          // Ready a little before the window opens, or (late) after it closed.
          ready = order.outcome === "collected_late" ? arrival("late", window, next) : window.from - next() * HOUR
          return { ...entry, at: new Date(ready).toISOString() }
        }
        const at = ready !== null ? ready + (3 + next() * 40) * HOUR : arrival(order.outcome, window, next)
        return { ...entry, at: new Date(Math.min(at, now - HOUR)).toISOString() }
      })
      entries.push({
        value: "demo history",
        at: new Date(now).toISOString(),
        source: DEMO_HISTORY_SOURCE,
        detail: `Made up by npm run demo: this order's dates were moved ${order.daysAgo} days back to fill Delivery insights.`,
      } as (typeof entries)[number])
      const lastMove = Math.max(...entries.filter((e) => e.source !== DEMO_HISTORY_SOURCE).map((e) => Date.parse(e.at)))
      await db.query(
        `UPDATE lastmile_task SET placed_at = $2, created_at = $3, booked_at = $4, quoted_rate = $5, status_history = $6,
           last_checked_at = $7, updated_at = $7 WHERE id = $1`,
        [
          row.id,
          moved(row.placed_at ?? row.created_at),
          moved(row.created_at),
          moved(row.booked_at),
          rate
            ? JSON.stringify({
                ...rate,
                window: window
                  ? { from: new Date(window.from).toISOString(), to: new Date(window.to).toISOString() }
                  : null,
                quoted_at: moved(rate.quoted_at),
              })
            : null,
          JSON.stringify({ entries }),
          new Date(lastMove).toISOString(),
        ]
      )
    }
    await spreadCounters(db, history)
    await db.query("COMMIT")
  })
}

/**
 * The counters the history made today, spread over the days its carts stand
 * for: each order's choice on its own day, the cart states and offers over
 * the orders' and the abandoned carts' days in turn.
 */
async function spreadCounters(db: Client, history: History): Promise<void> {
  const { rows } = await db.query<CounterRow & { id: string }>(
    "SELECT id, day, kind, fulfillment_option, stock_location_id, reason, count FROM lastmile_offer_count WHERE deleted_at IS NULL AND day = (SELECT max(day) FROM lastmile_offer_count)"
  )
  const days = [
    ...history.tasks.map((t) => t.order.daysAgo),
    ...Array.from({ length: history.carts }, (_, i) => 1 + ((i * 7) % 27)),
  ]
  const dayOf = (daysAgo: number, today: string) => {
    const date = new Date(`${today}T12:00:00Z`)
    date.setUTCDate(date.getUTCDate() - daysAgo)
    return date.toISOString().slice(0, 10)
  }
  const moved = new Map<string, CounterRow>()
  const add = (row: CounterRow) => {
    const key = `${row.day}\u0000${counterKey(row)}`
    const existing = moved.get(key)
    if (existing) {
      existing.count += row.count
    } else {
      moved.set(key, { ...row })
    }
  }
  let turn = 0
  for (const row of rows) {
    const made = Number(row.count) - (history.counters.get(`${row.day}\u0000${counterKey(row)}`) ?? 0)
    if (made <= 0) {
      continue
    }
    await db.query("UPDATE lastmile_offer_count SET count = count - $2 WHERE id = $1", [row.id, made])
    // An option's choices go to the days of the orders placed with it.
    const chosenOn = history.tasks
      .filter((t) => t.option === counterOption({ ...row, stock_location_id: row.stock_location_id || null }))
      .map((t) => t.order.daysAgo)
    for (let n = 0; n < made; n++) {
      const daysAgo =
        row.kind === "chosen" && chosenOn.length ? chosenOn[n % chosenOn.length] : days[turn++ % days.length]
      add({ ...row, day: dayOf(daysAgo, row.day), count: 1 })
    }
  }
  await db.query("DELETE FROM lastmile_offer_count WHERE count <= 0")
  for (const row of moved.values()) {
    await db.query(
      `INSERT INTO lastmile_offer_count (id, day, kind, fulfillment_option, stock_location_id, reason, count)
       VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (day, kind, fulfillment_option, stock_location_id, reason) WHERE deleted_at IS NULL
       DO UPDATE SET count = lastmile_offer_count.count + EXCLUDED.count`,
      [
        `lmoc_demo_${Math.random().toString(36).slice(2)}${Date.now().toString(36)}`,
        row.day,
        row.kind,
        row.fulfillment_option,
        row.stock_location_id,
        row.reason,
        row.count,
      ]
    )
  }
}
