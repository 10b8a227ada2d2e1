/**
 * A hostile client, a broken sender and a hostile service over HTTP: each gets a 4xx with a reason or a 502 naming the
 * failure, changes nothing, shows nothing unsafe, leaks no key or token. `RECORD=1` writes RELIABILITY.md's security.
 */
import { request as httpRequest } from "node:http"
import { ContainerRegistrationKeys, generateJwtToken } from "@medusajs/framework/utils"
import { medusaIntegrationTestRunner } from "../helpers/medusa-app"
import type { AxiosResponse } from "axios"
import type { SeededStore } from "../helpers/seed-store"
import type { InsightsReport } from "../../src/lib/contracts/insights-api"
import { londonTestLocations, useLondonStore } from "../helpers/london-store"
import { type Admin, adminFor } from "../helpers/admin"
import { createAdminHeaders } from "../helpers/admin-auth"
import { lastmileTasks, orderWith, waitForTask } from "../helpers/orders"
import { TEST_API_KEY, TEST_WEBHOOK_SECRET, useSimulator } from "../helpers/simulator"
import { type Storefront, londonShopper, placeOrder } from "../helpers/storefront"
import { recordSection } from "../system/lib/reliability-report"

jest.setTimeout(120_000)

const { simulator } = useSimulator(
  { locations: londonTestLocations() },
  {
    LASTMILE_FALLBACK_AMOUNTS: "gbp:5.95",
    LASTMILE_QUOTE_BUDGET_MS: "1000",
    // The admin's webhook URL comes from here, whatever a request's headers say.
    LASTMILE_BACKEND_URL: "https://shop.example.com",
  }
)

/** The attempts that need an app of their own, recorded with this section. */
const ELSEWHERE = `Also in \`npm test\`, with an app configured for them: a cart whose address, or basket (an item the store no longer stocks), changed during an outage is never charged its kept price and cannot complete with it (\`checkout-rates.spec.ts\`); with a signing secret, an unsigned or wrongly signed webhook, of 70 KB or declaring 500 MB, writes no row (\`tracking.spec.ts\`); the token is in no access-log line, in Medusa's development and production formats, for 8 methods and paths below it (\`src/api/hooks/lastmile/__tests__/hide-token.unit.spec.ts\`); the simulator's control API refuses 10 foreign Hosts and Origins and keeps running on undecodable paths (\`packages/simulator/src/__tests__/control-api.unit.spec.ts\`); after an address change during an outage a cart holds no method named after the old rate at another price, a rate the live quote no longer offers is removed the same way, and an order chosen again at the estimate is charged the estimate, booked by the option's rule and shown as both in the admin (\`checkout-rates.spec.ts\`); a cart changed 12 times counts once, and the Analytics Module gets one event per cart and day with no cart, order or customer id in clear (\`insights.spec.ts\`); the service's error text reaches no task, bell or report with a line break, a control or a bidi character (\`src/lib/service-client/__tests__/client.unit.spec.ts\`); the demo's storefront server answers \`/%FF\` and 5 other undecodable paths with 400 and keeps running, and its mailbox refuses 9 foreign Hosts, Origins and Sec-Fetch-Sites, a forged cookie and an address not ordered from that browser (\`demo/__tests__/storefront-server.unit.spec.ts\`).`

/** Characters that reorder or hide text: right-to-left override, isolates, marks. */
const BIDI = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/

/** A raw request, as a browser or a crafted client sends it: any Host, Origin or Content-Length. */
function rawRequest(
  url: string,
  { method = "GET", headers = {}, body }: { method?: string; headers?: Record<string, string>; body?: string }
): Promise<{ status: number; text: string }> {
  const target = new URL(url)
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      // A connection of its own: one the server closed after refusing an unread body is never reused.
      {
        host: target.hostname,
        port: target.port,
        method,
        path: `${target.pathname}${target.search}`,
        headers,
        agent: false,
      },
      (res) => {
        let text = ""
        res.setEncoding("utf8")
        res.on("data", (chunk) => (text += chunk))
        res.on("end", () => resolve({ status: res.statusCode ?? 0, text }))
      }
    )
    req.on("error", (error) => reject(new Error(`${method} ${target.pathname}: ${error.message}`)))
    req.end(body)
  })
}

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
${rows}

${ELSEWHERE}`
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

    it("answers an undecodable or control-character path with a 4xx, and keeps the token out of every method's logged URL", async () => {
      // The webhook: a token that is not valid percent-encoding is a wrong token, for every method.
      for (const method of ["POST", "GET", "PUT", "DELETE"]) {
        for (const token of ["%FF", "%C3%28", "abc%E2%82"]) {
          const answer = await rawRequest(hook(token), {
            method,
            headers: { "content-type": "application/json" },
            body: method === "GET" ? undefined : "{}",
          })
          bodies.push(answer.text)
          expect({ method, token, status: answer.status }).toEqual({ method, token, status: 401 })
        }
      }
      note("webhook path", "POST, GET, PUT and DELETE /hooks/lastmile/%FF, %C3%28, abc%E2%82 (not UTF-8)", "401 each")
      // Whatever the method or what follows the token, the URL Medusa logs (and Express names) is the redacted one.
      for (const [method, path] of [
        ["GET", `/hooks/lastmile/${TEST_WEBHOOK_SECRET}`],
        ["PUT", `/hooks/lastmile/${TEST_WEBHOOK_SECRET}`],
        ["DELETE", `/hooks/lastmile/${TEST_WEBHOOK_SECRET}`],
        ["PATCH", `/hooks/lastmile/${TEST_WEBHOOK_SECRET}`],
        ["GET", `/hooks/lastmile/${TEST_WEBHOOK_SECRET}/deeper?x=1`],
        ["POST", `/hooks/lastmile/${TEST_WEBHOOK_SECRET}/deeper`],
      ]) {
        const answer = await rawRequest(`${api.defaults.baseURL}${path}`, { method })
        bodies.push(answer.text)
        expect({ method, path, status: answer.status }).toEqual({ method, path, status: 404 })
        expect(answer.text).toContain("/hooks/lastmile/[token]")
        expect(answer.text).not.toContain(TEST_WEBHOOK_SECRET)
      }
      note(
        "webhook token",
        "GET, PUT, DELETE, PATCH on the webhook URL, and paths below it",
        "404 naming /hooks/lastmile/[token], the URL the access log prints"
      )

      // The plugin's admin routes: a NUL, another control character, or bytes that are not UTF-8, in the id.
      const ids = ["%00", "x%01y", "%FF", "%C3%28", "%ED%A0%80"]
      const routes: [string, "get" | "post" | "delete", unknown][] = [
        ["/admin/lastmile/orders/:id", "get", undefined],
        ["/admin/lastmile/orders/:id/retry", "post", {}],
        ["/admin/lastmile/orders/:id/refresh", "post", {}],
        ["/admin/lastmile/tasks/:id/retry", "post", {}],
        ["/admin/lastmile/tasks/:id/cancel", "post", { confirm: true }],
        ["/admin/lastmile/tasks/:id/notice/dismiss", "post", {}],
        ["/admin/lastmile/locations/:id/collection", "post", { enabled: true }],
        ["/admin/lastmile/locations/:id/link", "post", { stock_location_id: "sloc_1" }],
        ["/admin/lastmile/locations/:id/link", "delete", undefined],
        ["/admin/lastmile/locations/:id/stock-location", "post", {}],
        ["/admin/lastmile/stock-locations/:id", "get", undefined],
      ]
      for (const [route, method, body] of routes) {
        for (const id of ids) {
          const path = route.replace(":id", id)
          const answer = kept(
            method === "get"
              ? await admin.get(path)
              : method === "delete"
                ? await admin.delete(path)
                : await admin.post(path, body)
          )
          expect({ path, status: answer.status }).toEqual({ path, status: 400 })
        }
      }
      note("admin ids", `${routes.length} admin routes × an id with %00, %01, %FF, %C3%28, %ED%A0%80`, "400 each")
      for (const [path, body] of [
        ["/admin/lastmile/locations/1/link", { stock_location_id: "sloc_\u0000" }],
        ["/admin/lastmile/setup", { return_location_id: "\u0000" }],
        ["/admin/lastmile/setup", { sales_channel_ids: ["sc_\u0007"] }],
      ] as const) {
        const answer = kept(await admin.post(path, body))
        expect({ path, status: answer.status }).toEqual({ path, status: 400 })
      }
      note(
        "admin ids",
        "a NUL or a control character in a body's stock_location_id, return_location_id, sales_channel_ids",
        "400 each"
      )
      const undecodable = kept(await shop.get("/store/lastmile/rates?cart_id=%FF"))
      expect(undecodable.status).toBe(400)
      note("rates route", "cart_id=%FF (not UTF-8)", undecodable.status)

      // The plugin's store route, which a publishable key alone reaches.
      for (const id of ids) {
        const answer = kept(await shop.get<{ message?: string }>(`/store/lastmile/orders/${id}/booking`))
        expect({ id, status: answer.status }).toEqual({ id, status: 400 })
        expect(typeof answer.data.message).toBe("string")
      }
      const unknown = kept(await shop.get("/store/lastmile/orders/order_missing/booking"))
      expect(unknown.status).toBe(404)
      note(
        "store ids",
        "GET /store/lastmile/orders/:id/booking (publishable key) × an id with %00, %01, %FF, %C3%28, %ED%A0%80; an unknown order",
        "400 each; 404"
      )
    })

    it("answers a completed cart's rates with a 400, without asking the service", async () => {
      const cart = await shop.createCart({
        region_id: seed.regions.gbp,
        email: "ada@example.com",
        shipping_address: londonShopper,
        items: [{ variant_id: seed.variants.tee, quantity: 1 }],
      })
      expect(
        (await shop.post(`/store/carts/${cart.id}/shipping-methods`, { option_id: seed.options.nextDay })).status
      ).toBe(200)
      const order = await placeOrder(shop, cart.id)
      await waitForTask(getContainer(), order.id)
      simulator.clearRequests()
      const answer = kept(await shop.get<{ message: string }>(`/store/lastmile/rates?cart_id=${cart.id}`))
      expect(answer.status).toBe(400)
      expect(answer.data.message).toContain("already completed")
      expect(simulator.requests("quote")).toHaveLength(0)
      note("rates route", "a completed cart's id", `400 (${answer.data.message.replace(cart.id, "cart_…")}); no quote`)
    })

    it("answers 502 naming the cause when the service refuses the API key, on every route that asks it", async () => {
      const camden = String(simulator.location("store-camden").fulfilmentLocationId)
      const routes: [string, "post" | "delete", unknown][] = [
        [`/admin/lastmile/locations/${camden}/collection`, "post", { enabled: false }],
        [`/admin/lastmile/locations/${camden}/stock-location`, "post", {}],
        [`/admin/lastmile/locations/${camden}/link`, "post", { stock_location_id: seed.warehouseId }],
        [`/admin/lastmile/locations/${camden}/link`, "delete", undefined],
        ["/admin/lastmile/setup", "post", {}],
      ]
      simulator.addFault({ operation: "listLocations", kind: "status", status: 401 })
      for (const [path, method, body] of routes) {
        const answer = kept(
          method === "delete"
            ? await admin.delete<{ message: string; code: string }>(path)
            : await admin.post<{ message: string; code: string }>(path, body)
        )
        expect({ path, method, status: answer.status }).toEqual({ path, method, status: 502 })
        expect(answer.data.code).toBe("lastmile_service_authentication")
        expect(answer.data.message).toContain("the service refused the API key (401)")
      }
      note(
        "service refuses the key",
        `${routes.length} admin routes that read the service's locations (collection, create stock location, link, unlink, setup)`,
        "502 (… the service refused the API key (401): check the provider's api_key)"
      )
      // The list answers, the switch itself is refused.
      simulator.clearFaults()
      simulator.addFault({ operation: "updateLocation", kind: "status", status: 403 })
      const switched = kept(
        await admin.post<{ message: string }>(`/admin/lastmile/locations/${camden}/collection`, { enabled: false })
      )
      expect(switched.status).toBe(502)
      expect(switched.data.message).toBe(
        `The service did not change collection for location ${camden}: the service refused the API key (403): check the provider's api_key`
      )
      expect(simulator.location("store-camden").collectionEnabled).toBe(true)
      note("service refuses the key", "the collection switch's PATCH answered 403", "502, collection unchanged")
      simulator.clearFaults()
      simulator.addFault({ operation: "listLocations", kind: "status", status: 503 })
      const down = kept(
        await admin.post<{ message: string }>(`/admin/lastmile/locations/${camden}/collection`, { enabled: false })
      )
      expect(down.status).toBe(502)
      expect(down.data.message).toContain("the service failed (503)")
      note(
        "service fails",
        "the service answers 503 to the collection switch",
        "502 (… the service failed (503): try again later)"
      )
    })

    it("shows nothing unsafe the service sends: a javascript: tracking link, bidi overrides, a 20,000-character store name", async () => {
      const original = simulator.state.config.deliveryServices
      const hostileName = `\u202EnedmaC ${"X".repeat(20_000)}`
      simulator.configure({
        trackingUrl: "javascript:alert(document.domain)",
        trackingIdPrefix: "\u202ELM",
        deliveryServices: original.map((d) => ({
          ...d,
          name: `Next day \u202Eyreviled`,
          description: `Tomorrow\u2066 08:00\u2069`,
        })),
      })
      simulator.updateLocation("store-camden", { name: hostileName })
      try {
        const warned = logged.length
        const order = await orderWith(shop, seed, seed.options.collection["store-camden"])
        const task = await waitForTask(getContainer(), order.id)
        expect(task.status).toBe("booked")
        // A status with an override, read back by the merchant's Refresh.
        simulator.setTaskStatus(Number(task.task_id), "IN_\u202ETRANSIT")
        expect((await admin.post(`/admin/lastmile/orders/${order.id}/refresh`, {})).status).toBe(200)

        const cart = await shop.createCart({
          region_id: seed.regions.gbp,
          email: "ada@example.com",
          shipping_address: londonShopper,
          items: [{ variant_id: seed.variants.tee, quantity: 1 }],
        })
        const answers = {
          "store API order": await shop.get(`/store/orders/${order.id}`),
          "admin API order": await admin.get(
            `/admin/orders/${order.id}?fields=*fulfillments,*fulfillments.labels,*shipping_methods`
          ),
          "admin API lastmile order": await admin.get(`/admin/lastmile/orders/${order.id}`),
          "admin API locations": await admin.get(
            `/admin/lastmile/stock-locations/${seed.storeLocations["store-camden"]}`
          ),
          "rates route": await shop.get(`/store/lastmile/rates?cart_id=${cart.id}`),
        }
        for (const [where, answer] of Object.entries(answers)) {
          expect({ where, status: answer.status }).toEqual({ where, status: 200 })
          const text = JSON.stringify(kept(answer).data)
          expect({ where, link: text.includes("javascript:") }).toEqual({ where, link: false })
          expect({ where, bidi: BIDI.test(text) }).toEqual({ where, bidi: false })
          expect({ where, long: /X{1000}/.test(text) }).toEqual({ where, long: false })
        }
        // What the shopper and the merchant see instead: the code, no link, the name cut, the words kept.
        const fulfillments = (
          answers["admin API order"].data as {
            order: { fulfillments: { labels: { tracking_number: string; tracking_url: string }[] }[] }
          }
        ).order.fulfillments
        expect(fulfillments[0].labels).toEqual([
          expect.objectContaining({ tracking_number: task.tracking_id, tracking_url: "" }),
        ])
        expect(task.tracking_id).toMatch(/^LM[0-9A-F]{10}$/)
        expect(task.tracking_url).toBeNull()
        const views = (
          answers["admin API lastmile order"].data as {
            tasks: { service_status: string; tracking_url: string | null }[]
          }
        ).tasks
        expect(views[0]).toMatchObject({ service_status: "IN_TRANSIT", tracking_url: null })
        const camden = (
          answers["rates route"].data as {
            rates: { merchant_location_id: string; description: string; name: string }[]
          }
        ).rates.find((r) => r.merchant_location_id === "store-camden")
        expect(camden?.description.startsWith("Collect from nedmaC XXX")).toBe(true)
        expect(camden!.description.length).toBeLessThanOrEqual(500)
        // The merchant is told, without the link itself.
        const warnings = logged.slice(warned).filter((line) => line.includes("trackingUrl"))
        expect(warnings.some((line) => line.includes("not an http(s) link (javascript:)"))).toBe(true)
        expect(warnings.join("\n")).not.toContain("document.domain")
        note(
          "hostile service",
          "a javascript: trackingUrl, bidi overrides in the store name, rate, tracking code and status, a 20,000-character store name",
          `none in ${Object.keys(answers).join(", ")}; the label keeps the code without a link; a warning names the field and scheme`
        )
      } finally {
        simulator.configure({ trackingUrl: undefined, trackingIdPrefix: undefined, deliveryServices: original })
      }
    })

    it("shows the webhook URL from backend_url, whatever the request's Host or forwarded headers say", async () => {
      const answer: AxiosResponse<{ webhook: { url: string; url_source: string } }> = await api.get("/admin/lastmile", {
        headers: {
          ...(await createAdminHeaders(getContainer(), "webhook-url@lastmile.test")).headers,
          host: "evil.example",
          "x-forwarded-proto": "http",
          "x-forwarded-host": "evil.example",
        },
        validateStatus: () => true,
      })
      // Not kept: this answer is the one place the token belongs.
      expect(answer.data.webhook).toEqual(
        expect.objectContaining({
          url: `https://shop.example.com/hooks/lastmile/${TEST_WEBHOOK_SECRET}`,
          url_source: "backend_url",
        })
      )
      note(
        "admin webhook URL",
        "GET /admin/lastmile with Host and X-Forwarded-* of evil.example",
        "the URL of backend_url, source named"
      )
    })

    it("refuses the simulator's control API from another Host or a web page's Origin", async () => {
      const port = new URL(simulator.url).port
      const attempts: Record<string, string>[] = [
        { host: `evil.example:${port}` },
        { host: `127.0.0.1:${port}`, origin: "https://evil.example" },
        { host: `127.0.0.1:${port}`, origin: "null" },
        { host: `127.0.0.1:${port}`, "sec-fetch-site": "cross-site" },
      ]
      for (const headers of attempts) {
        const answer = await rawRequest(`${simulator.url}/__sim/faults`, {
          method: "POST",
          headers: { ...headers, "content-type": "application/json" },
          body: JSON.stringify({ operation: "*", kind: "timeout" }),
        })
        bodies.push(answer.text)
        expect({ headers, status: answer.status }).toEqual({ headers, status: 403 })
      }
      const config = await rawRequest(`${simulator.url}/__sim/config`, {})
      bodies.push(config.text)
      expect(config.status).toBe(200)
      expect(config.text).not.toContain(TEST_API_KEY)
      note(
        "simulator control API",
        "a foreign Host, an evil Origin, a null Origin, Sec-Fetch-Site: cross-site",
        "403 each, no fault added; its config shows no key"
      )
    })

    it("answers insights dates the calendar cannot read with a 400, never a 500", async () => {
      for (const query of [
        "?to=9999-12-31",
        "?from=9999-12-31T23:59:59-12:00",
        "?from=0150-01-01&to=0150-01-31",
        "?from=1999-12-31",
        "?to=2999-12-31T23:30:00-05:00",
      ]) {
        const answer = kept(await admin.get<{ message: string }>(`/admin/lastmile/insights${query}`))
        expect({ query, status: answer.status }).toEqual({ query, status: 400 })
        expect(answer.data.message).toContain("must be a date in the years 2000 to 2999")
      }
      note(
        "insights dates",
        "to=9999-12-31, from=9999-12-31T23:59:59-12:00, from=0150-01-01, from=1999-12-31, to=2999-12-31T23:30-05:00",
        "400 each (… must be a date in the years 2000 to 2999)"
      )
    })

    it("never leaves a chosen rate on a cart changed in an outage at another price, and tells the shopper", async () => {
      const chosen = await cart()
      const added = kept(
        await shop.post<{ cart: { shipping_methods: { amount: number }[] } }>(
          `/store/carts/${chosen.id}/shipping-methods`,
          { option_id: seed.options.nextDay, data: { rate_code: "NEXT_DAY" } }
        )
      )
      expect(added.data.cart.shipping_methods.map((m) => m.amount)).toEqual([4.95])
      simulator.addFault({ operation: "quote", kind: "status", status: 503 })
      try {
        const moved = kept(
          await shop.post<{ cart: { shipping_methods: unknown[] } }>(`/store/carts/${chosen.id}`, {
            shipping_address: { ...londonShopper, address_1: "1 Horse Guards Road", postal_code: "SW1A 2HQ" },
          })
        )
        expect(moved.status).toBe(200)
        expect(moved.data.cart.shipping_methods).toEqual([])
        const rates = kept(
          await shop.get<{ lost_choice: { name: string; amount: number; reason: string } | null }>(
            `/store/lastmile/rates?cart_id=${chosen.id}`
          )
        )
        expect(rates.data.lost_choice).toMatchObject({ name: "Next day delivery", amount: 4.95 })
      } finally {
        simulator.clearFaults()
      }
      note(
        "estimate under a rate's name",
        "a rate chosen at 4.95, the service down (503), the address changed",
        "200; the cart holds no method (never the 5.95 estimate under the rate's name); the rates route's lost_choice names it"
      )
    })

    it("counts a cart changed twelve times once in the insights, and quotes a CSV cell holding a semicolon", async () => {
      const before = (await admin.get<InsightsReport>("/admin/lastmile/insights")).data
      const anonymous = await shop.createCart({
        region_id: seed.regions.gbp,
        shipping_address: londonShopper,
        items: [{ variant_id: seed.variants.tee, quantity: 1 }],
      })
      let listed = 0
      for (let change = 1; change <= 12; change++) {
        expect((await shop.post(`/store/carts/${anonymous.id}`, { email: `x${change}@example.com` })).status).toBe(200)
        const rates = kept(await shop.get<{ rates: unknown[] }>(`/store/lastmile/rates?cart_id=${anonymous.id}`))
        expect(rates.status).toBe(200)
        listed = rates.data.rates.length
      }
      const after = (await admin.get<InsightsReport>("/admin/lastmile/insights")).data
      const priced = (r: InsightsReport) =>
        r.offers.by_option.reduce(
          (sum, o) => sum + o.offered + Object.values(o.unavailable).reduce((a, n) => a + n, 0),
          0
        )
      expect(after.offers.carts - before.offers.carts).toBe(1)
      expect(listed).toBeGreaterThan(1)
      expect(priced(after) - priced(before)).toBe(listed)
      note(
        "insights inflation",
        "an anonymous cart's email changed 12 times, the rates route read after each",
        `1 cart; each of the ${listed} options it was priced counted once (was 12 and ${12 * listed})`
      )

      // A store named by the service as a formula behind a semicolon, as Excel in a ;-separator locale reads it.
      const camden = seed.storeLocations["store-camden"]
      const named = await admin.post(`/admin/stock-locations/${camden}`, { name: "Store;=1+2" })
      expect(named.status).toBe(200)
      try {
        const csv = kept(await admin.get<string>("/admin/lastmile/insights?format=csv"))
        const lines = csv.data.split("\r\n").filter((line) => line.includes("Store;"))
        expect(lines.length).toBeGreaterThan(0)
        for (const line of lines) {
          expect(line).toContain(`"Store;'=1+2"`)
          expect(line.split(";").filter((cell) => /^[=+\-@]/.test(cell))).toEqual([])
        }
      } finally {
        await admin.post(`/admin/stock-locations/${camden}`, { name: "Camden store" })
      }
      note("insights CSV", "a store named Store;=1+2", `quoted, the formula made text: "Store;'=1+2"`)
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
