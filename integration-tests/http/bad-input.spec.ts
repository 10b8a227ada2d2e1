/**
 * A hostile client and a broken sender, over HTTP: forged method data, bad
 * webhook bodies, bad ids and queries, calls without an admin's token. Each
 * gets a 4xx with a reason (a webhook's forged token a bare 401), none
 * changes a price or the plugin's state, and no response and no log line
 * holds the API key or the webhook token. `RECORD=1` writes the attempts to
 * RELIABILITY.md's security section.
 */
import { ContainerRegistrationKeys, generateJwtToken } from "@medusajs/framework/utils"
import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import type { AxiosResponse } from "axios"
import type { SeededStore } from "../helpers/seed-store"
import { londonTestLocations, useLondonStore } from "../helpers/london-store"
import { type Admin, adminFor } from "../helpers/admin"
import { lastmileTasks, orderWith, waitForTask } from "../helpers/orders"
import { TEST_API_KEY, TEST_WEBHOOK_SECRET, useSimulator } from "../helpers/simulator"
import { type Storefront, londonShopper } from "../helpers/storefront"
import { recordSection } from "../system/lib/reliability-report"

jest.setTimeout(120_000)

const { simulator } = useSimulator(
  { locations: londonTestLocations() },
  { LASTMILE_FALLBACK_AMOUNTS: "gbp:5.95", LASTMILE_QUOTE_BUDGET_MS: "1000" }
)

interface Attempt {
  group: string
  what: string
  answer: string
}

/** Every field of the method-data contract, forged. */
const FORGED = {
  provider: "lastmile",
  optionId: "lastmile-next-day",
  kind: "collection",
  quotedAmount: -500,
  quotedCurrency: "GBP",
  quotedAt: new Date().toISOString(),
  rateCode: "FREE",
  rateName: "Free",
  rateChosen: false,
  fallback: false,
  deliveryType: "SAME_DAY",
  stockLocationId: "sloc_forged",
  merchantLocationId: "store-forged",
  phoneNumber: "+440000000000",
  store: { name: "Forged" },
}

medusaIntegrationTestRunner({
  testSuite: ({ api, getContainer }) => {
    let seed: SeededStore
    let shop: Storefront
    let admin: Admin
    const attempts: Attempt[] = []
    const bodies: string[] = []
    const logged: string[] = []
    const hook = (token = TEST_WEBHOOK_SECRET) => `${api.defaults.baseURL}/hooks/lastmile/${token}`

    const london = useLondonStore(simulator, { api, getContainer })
    beforeAll(async () => {
      ;({ seed, shop } = london)
      admin = await adminFor(api, getContainer())
      // Everything written to the process's output (the access log writes there outside development)...
      const write = process.stdout.write.bind(process.stdout)
      process.stdout.write = ((chunk: string | Uint8Array, ...rest: never[]) => {
        logged.push(String(chunk))
        return write(chunk, ...rest)
      }) as typeof process.stdout.write
      // ...and every line the app's logger writes.
      const logger = getContainer().resolve(ContainerRegistrationKeys.LOGGER) as unknown as Record<
        string,
        (...args: unknown[]) => unknown
      >
      for (const level of ["info", "warn", "error", "debug", "http", "log", "verbose"]) {
        const original = logger[level]?.bind(logger)
        if (original) {
          logger[level] = (...args: unknown[]) => {
            logged.push(args.map((a) => (typeof a === "string" ? a : JSON.stringify(a))).join(" "))
            return original(...args)
          }
        }
      }
    })

    afterAll(() => {
      if (process.env.RECORD === "1") {
        const rows = attempts.map((a) => `| ${a.group} | ${a.what} | ${a.answer} |`).join("\n")
        recordSection(
          "security",
          `## Security: \`integration-tests/http/bad-input.spec.ts\` (in \`npm test\`)

Recorded ${new Date().toISOString().slice(0, 10)}: ${attempts.length} attempts over HTTP against the app and the simulator; ${bodies.length} answers and ${logged.length} log lines were searched for the API key and the webhook token, and held neither.

| Group | Attempt | Answer |
| --- | --- | --- |
${rows}`
        )
      }
    })

    const kept = <T>(response: AxiosResponse<T>) => {
      bodies.push(JSON.stringify(response.data ?? ""))
      return response
    }
    const note = (group: string, what: string, answer: string | number) =>
      attempts.push({ group, what, answer: String(answer) })
    const cart = () =>
      shop.createCart({
        region_id: seed.regions.gbp,
        email: "ada@example.com",
        shipping_address: londonShopper,
        items: [{ variant_id: seed.variants.tee, quantity: 1 }],
      })
    const calculate = (cartId: string, data: unknown) =>
      shop
        .post<{ shipping_option: { calculated_price: { calculated_amount: number } } }>(
          `/store/shipping-options/${seed.options.nextDay}/calculate`,
          { cart_id: cartId, data }
        )
        .then(kept)

    it("takes no price from the client: forged method data on /calculate and shipping-methods, live and in an outage", async () => {
      const live = await cart()
      for (const [field, value] of Object.entries(FORGED)) {
        const answer = await calculate(live.id, { [field]: value })
        expect(answer.status).toBe(200)
        expect(answer.data.shipping_option.calculated_price.calculated_amount).toBe(4.95)
      }
      note(
        "forged data",
        `/calculate with each of the ${Object.keys(FORGED).length} method-data fields forged, live`,
        "200, 4.95 (the quote's price)"
      )
      const added = kept(
        await shop.post<{ cart: { shipping_methods: { amount: number; data: Record<string, unknown> }[] } }>(
          `/store/carts/${live.id}/shipping-methods`,
          { option_id: seed.options.nextDay, data: FORGED }
        )
      )
      expect(added.status).toBe(200)
      expect(added.data.cart.shipping_methods[0].amount).toBe(4.95)
      const { data: stored } = await getContainer()
        .resolve(ContainerRegistrationKeys.QUERY)
        .graph({ entity: "cart", fields: ["shipping_methods.data"], filters: { id: live.id } })
      expect(JSON.stringify(stored[0].shipping_methods)).not.toMatch(
        /quotedAmount|sloc_forged|store-forged|Free|\+4400/
      )
      note(
        "forged data",
        "shipping-methods with every field forged (quotedAmount -500), live",
        "200, 4.95; nothing forged stored"
      )

      // An outage: the chosen method keeps the price the server stored, whatever the request says.
      simulator.addFault({ operation: "quote", kind: "status", status: 503 })
      const outage = await calculate(live.id, FORGED)
      expect(outage.data.shipping_option.calculated_price.calculated_amount).toBe(4.95)
      const fresh = await cart()
      const unchosen = await calculate(fresh.id, { ...FORGED, quotedAmount: 1 })
      expect(unchosen.data.shipping_option.calculated_price.calculated_amount).toBe(5.95)
      const forgedAdd = kept(
        await shop.post<{ cart: { shipping_methods: { amount: number }[] } }>(
          `/store/carts/${fresh.id}/shipping-methods`,
          { option_id: seed.options.nextDay, data: { ...FORGED, quotedAmount: -500 } }
        )
      )
      expect(forgedAdd.status).toBe(200)
      expect(forgedAdd.data.cart.shipping_methods[0].amount).toBe(5.95)
      note(
        "forged data",
        "/calculate and shipping-methods with quotedAmount 1 and -500 during an outage",
        "200: the kept 4.95 for the chosen method, the 5.95 estimate otherwise; never a 500"
      )
    })

    it("answers every bad webhook body with a 4xx and keeps it redacted; a forged token with 401", async () => {
      const post = (body: string | Buffer, { url = hook(), type = "application/json" } = {}) =>
        api.post(url, body, { headers: { "content-type": type }, validateStatus: () => true }).then(kept)
      const deep = `${"[".repeat(10_000)}${"]".repeat(10_000)}`
      const cases: [string, string | Buffer, number, string?][] = [
        ["10,000 levels of nesting", `{"taskId":1,"a":${deep}}`, 400],
        ["a NUL character in a string", '{"taskId":"1\\u0000"}', 400],
        ["a lone surrogate in a string", '{"taskId":"\\ud800"}', 400],
        ["a body of 70 KB", JSON.stringify({ taskId: 1, pad: "x".repeat(70 * 1024) }), 413],
        ["a form body", "taskId=1", 415, "application/x-www-form-urlencoded"],
        ["not JSON", "{taskId: 1", 400],
        ["a JSON array", "[1,2]", 400],
      ]
      const before = await lastmileTasks(getContainer()).listLastmileWebhookEvents({}, { select: ["id"] })
      for (const [what, body, status, type] of cases) {
        const answer = await post(body, type ? { type } : {})
        expect({ what, status: answer.status }).toEqual({ what, status })
        expect(typeof answer.data?.message).toBe("string")
        note("webhook body", what, `${answer.status} (${answer.data.message})`)
      }
      const refused = await lastmileTasks(getContainer()).listLastmileWebhookEvents({ status: "refused" })
      expect(refused.length).toBeGreaterThanOrEqual(cases.length)
      expect(JSON.stringify(refused)).not.toContain("xxxx")
      const received = await lastmileTasks(getContainer()).listLastmileWebhookEvents({}, { select: ["id"] })
      expect(received.length - before.length).toBe(cases.length)

      for (const token of ["whsec_test_0123456789abcdeX", "%00", "a".repeat(4000)]) {
        const forged = await post('{"taskId":1}', { url: hook(token) })
        expect(forged.status).toBe(401)
      }
      expect((await post('{"taskId":1}', { url: `${api.defaults.baseURL}/hooks/lastmile` })).status).toBe(401)
      note("webhook token", "a wrong, a NUL, a 4,000-character and a missing token", "401, no body")
    })

    it("answers bad ids and queries with a 4xx", async () => {
      const rates = async (query: string, status: number) => {
        const answer = kept(await shop.get(`/store/lastmile/rates${query}`))
        expect({ query, status: answer.status }).toEqual({ query, status })
      }
      await rates("", 400)
      await rates("?cart_id=", 400)
      await rates("?cart_id=%00", 400)
      await rates(`?cart_id=${"c".repeat(500)}`, 400)
      await rates("?cart_id=cart_missing", 404)
      note("rates route", "no cart_id, an empty one, a NUL, 500 characters, an unknown cart", "400, 400, 400, 400, 404")

      const routes: [string, "get" | "post" | "delete", unknown, number][] = [
        ["/admin/lastmile/orders/order_missing", "get", undefined, 404],
        ["/admin/lastmile/orders/order_missing/retry", "post", {}, 404],
        ["/admin/lastmile/orders/order_missing/refresh", "post", {}, 404],
        ["/admin/lastmile/tasks/lmtask_missing/retry", "post", {}, 404],
        ["/admin/lastmile/tasks/lmtask_missing/cancel", "post", { confirm: true }, 404],
        ["/admin/lastmile/tasks/lmtask_missing/cancel", "post", {}, 400],
        ["/admin/lastmile/tasks/lmtask_missing/notice/dismiss", "post", {}, 404],
        ["/admin/lastmile/locations/loc_missing/collection", "post", { enabled: true }, 404],
        ["/admin/lastmile/locations/loc_missing/collection", "post", { enabled: "yes" }, 400],
        ["/admin/lastmile/locations/loc_missing/link", "post", { stock_location_id: "sloc_missing" }, 404],
        ["/admin/lastmile/locations/loc_missing/link", "post", { stock_location_id: 7 }, 400],
        ["/admin/lastmile/locations/loc_missing/link", "delete", undefined, 404],
        ["/admin/lastmile/locations/loc_missing/stock-location", "post", {}, 404],
        ["/admin/lastmile/setup", "post", { return_location_id: "sloc_missing" }, 404],
        ["/admin/lastmile/setup", "post", { sales_channel_ids: "sc_1" }, 400],
      ]
      for (const [path, method, body, status] of routes) {
        const answer = kept(
          method === "get"
            ? await admin.get(path)
            : method === "delete"
              ? await admin.delete(path)
              : await admin.post(path, body)
        )
        expect({ path, body, status: answer.status }).toEqual({ path, body, status })
        note("admin ids", `${method.toUpperCase()} ${path} ${body ? JSON.stringify(body) : ""}`.trim(), answer.status)
      }
    })

    it("refuses every admin route without an admin's token, and with a customer's", async () => {
      const config = getContainer().resolve(ContainerRegistrationKeys.CONFIG_MODULE)
      const customer = generateJwtToken(
        { actor_id: "cus_forged", actor_type: "customer", auth_identity_id: "authid_forged", app_metadata: {} },
        { secret: config.projectConfig.http.jwtSecret!, expiresIn: "1d" }
      )
      const routes: [string, "get" | "post" | "delete"][] = [
        ["/admin/lastmile", "get"],
        ["/admin/lastmile/setup", "post"],
        ["/admin/lastmile/orders/order_1", "get"],
        ["/admin/lastmile/orders/order_1/retry", "post"],
        ["/admin/lastmile/orders/order_1/refresh", "post"],
        ["/admin/lastmile/tasks/lmtask_1/retry", "post"],
        ["/admin/lastmile/tasks/lmtask_1/cancel", "post"],
        ["/admin/lastmile/tasks/lmtask_1/notice/dismiss", "post"],
        ["/admin/lastmile/locations/1/collection", "post"],
        ["/admin/lastmile/locations/1/link", "post"],
        ["/admin/lastmile/locations/1/link", "delete"],
        ["/admin/lastmile/locations/1/stock-location", "post"],
        ["/admin/lastmile/stock-locations/sloc_1", "get"],
      ]
      for (const [path, method] of routes) {
        for (const headers of [{}, { authorization: `Bearer ${customer}` }, { authorization: "Bearer not-a-token" }]) {
          const answer = kept(
            method === "post"
              ? await api.post(path, {}, { headers, validateStatus: () => true })
              : await api.request({ method, url: path, headers, validateStatus: () => true })
          )
          expect({ path, headers, status: answer.status }).toEqual({ path, headers, status: 401 })
        }
      }
      note("admin auth", `${routes.length} admin routes × no token, a customer's token, a malformed token`, "401 each")
    })

    it("shows no phone number or internal id of the plugin's on the public order", async () => {
      const order = await orderWith(shop, seed, seed.options.collection["store-camden"])
      await waitForTask(getContainer(), order.id)
      const response = kept(
        await shop.get<{ order: { shipping_methods: { data: unknown }[]; fulfillments: { data: unknown }[] } }>(
          `/store/orders/${order.id}`
        )
      )
      expect(response.status).toBe(200)
      const plugin = JSON.stringify([
        response.data.order.shipping_methods.map((m) => m.data),
        response.data.order.fulfillments.map((f) => f.data),
      ])
      expect(plugin).toContain("Camden")
      expect(plugin).not.toMatch(
        /\+44|07911|sloc_|store-camden|optionId|quotedAmount|stockLocationId|merchantLocationId/
      )
      note(
        "public order",
        "GET /store/orders/:id of a booked collection",
        "the plugin's data: store, rate, tracking; no phone, no internal id"
      )
    })

    it("wrote the API key and the webhook token to no answer and no log line of the plugin's", () => {
      expect(bodies.length).toBeGreaterThan(50)
      expect(logged.length).toBeGreaterThan(0)
      // Medusa's own body parser names the path at debug level (never at the default level): the README says so.
      const medusaDebug = (line: string) => /(skipping|using custom) \w+ bodyparser/.test(line)
      for (const secret of [TEST_API_KEY, TEST_WEBHOOK_SECRET]) {
        expect(bodies.filter((b) => b.includes(secret))).toEqual([])
        expect(logged.filter((l) => l.includes(secret) && !medusaDebug(l))).toEqual([])
      }
      note(
        "secrets",
        `${bodies.length} answers and ${logged.length} log lines searched`,
        "neither the API key nor the webhook token (but Medusa's body-parser lines at debug level, which name the path)"
      )
    })
  },
})
