/**
 * `npm run demo:checkout`, beside `npm run demo`: a shopper's checkout through the store API, then the booked task
 * and its tracking as the admin shows them, moved along by the simulator until the order is delivered.
 */
import { SAMPLE_SHOPPER, toCartAddress } from "./storefront/lib/shopper"
import type { TaskView } from "../src/lib/contracts/admin-api"
import { DEMO_ADMIN, readDemoState } from "./settings"

const state = readDemoState()
const say = (line: string) => process.stdout.write(`${line}\n`)

async function call<T>(
  path: string,
  init: { method?: string; body?: unknown; headers?: Record<string, string> } = {}
): Promise<T> {
  const base = path.startsWith("/__sim") ? state.simulatorUrl : state.medusaUrl
  const response = await fetch(`${base}${path}`, {
    method: init.method ?? (init.body ? "POST" : "GET"),
    headers: { "content-type": "application/json", ...init.headers },
    body: init.body ? JSON.stringify(init.body) : undefined,
  })
  const text = await response.text()
  if (!response.ok) {
    throw new Error(`${init.method ?? "GET"} ${path} answered ${response.status}: ${text}`)
  }
  return (text ? JSON.parse(text) : {}) as T
}

const store = { "x-publishable-api-key": state.publishableKey }

async function main(): Promise<void> {
  const { products } = await call<{ products: { title: string; variants: { id: string }[] }[] }>(
    "/store/products?fields=title,*variants",
    { headers: store }
  )
  const tee = products.find((p) => p.title.includes("tee")) ?? products[0]
  const { cart } = await call<{ cart: { id: string } }>("/store/carts", {
    headers: store,
    body: {
      region_id: state.regionId,
      email: "ada@example.com",
      items: [{ variant_id: tee.variants[0].id, quantity: 1 }],
      shipping_address: toCartAddress(SAMPLE_SHOPPER),
    },
  })
  const { rates } = await call<{
    rates: {
      shipping_option_id: string
      name: string
      type: string
      amount: number | null
      available: boolean
      window: unknown
      unavailable_reason: string | null
    }[]
  }>(`/store/lastmile/rates?cart_id=${cart.id}`, { headers: store })
  say(`Rates offered for 1 × ${tee.title} to SW1A 2AA:`)
  for (const rate of rates) {
    say(
      `  ${rate.available ? "✓" : "✗"} ${rate.name.padEnd(32)} ${rate.available ? `£${rate.amount?.toFixed(2)}` : rate.unavailable_reason}`
    )
  }
  const nextDay = rates.find((r) => r.type === "delivery" && r.available)
  if (!nextDay) {
    throw new Error("No delivery rate is available")
  }
  await call(`/store/carts/${cart.id}/shipping-methods`, {
    headers: store,
    body: { option_id: nextDay.shipping_option_id },
  })
  const { payment_collection } = await call<{ payment_collection: { id: string } }>("/store/payment-collections", {
    headers: store,
    body: { cart_id: cart.id },
  })
  await call(`/store/payment-collections/${payment_collection.id}/payment-sessions`, {
    headers: store,
    body: { provider_id: "pp_system_default" },
  })
  const completed = await call<{ type: string; order: { id: string; display_id: number } }>(
    `/store/carts/${cart.id}/complete`,
    {
      headers: store,
      body: {},
    }
  )
  const order = completed.order
  say(`\nOrder #${order.display_id} placed (${order.id}) with ${nextDay.name}.`)

  const { token } = await call<{ token: string }>("/auth/user/emailpass", { body: DEMO_ADMIN })
  const admin = { authorization: `Bearer ${token}` }
  const task = async () =>
    (await call<{ tasks: TaskView[] }>(`/admin/lastmile/orders/${order.id}`, { headers: admin })).tasks[0]
  const waitFor = async (done: (t: TaskView) => boolean, what: string) => {
    const deadline = Date.now() + 60_000
    for (;;) {
      const t = await task()
      if (t && done(t)) {
        return t
      }
      if (Date.now() > deadline) {
        throw new Error(`The task did not become ${what}: ${JSON.stringify(t)}`)
      }
      await new Promise((resolve) => setTimeout(resolve, 250))
    }
  }
  const booked = await waitFor((t) => t.status !== "pending" && t.status !== "booking", "booked")
  if (booked.status !== "booked") {
    throw new Error(`Booking ${booked.status}: ${booked.last_error}`)
  }
  say(`Booked as task ${booked.task_id}, status ${booked.service_status}.`)
  say(`Tracking ${booked.tracking_id}: ${booked.tracking_url}`)

  say("\nThe courier moves the parcel (the simulator sends a webhook for each step):")
  for (;;) {
    const moved = await call<{ status: { value: string } }>(`/__sim/tasks/${booked.task_id}/advance`, { body: {} })
    const value = moved.status.value
    const seen = await waitFor((t) => t.service_status === value, value)
    say(`  ${value.padEnd(12)} → Medusa: ${seen.tracking_state}`)
    if (seen.tracking_state === "delivered") {
      break
    }
  }
  say(`\nOpen ${state.medusaUrl}/app/orders/${order.id} to see the fulfillment delivered and the Lastmile widget.`)
}

main().catch((error: unknown) => {
  process.stderr.write(`demo:checkout: ${error instanceof Error ? error.message : String(error)}\n`)
  process.exit(1)
})
