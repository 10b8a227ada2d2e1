import { medusaIntegrationTestRunner } from "../helpers/medusa-app"
import type { AxiosInstance } from "axios"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import type {
  LastmileOverview,
  LocationMappingResult,
  LocationView,
  SetupReport,
} from "../../src/lib/contracts/admin-api"
import { setupShippingOptionsWorkflow } from "../../src/workflows/setup-shipping-options"
import {
  createLastmileStockLocationWorkflow,
  linkLastmileLocationWorkflow,
  unlinkLastmileLocationWorkflow,
} from "../../src/workflows/map-lastmile-locations"
import { type SimLocation, alwaysOpenHours } from "../../packages/simulator/src"
import { londonTestLocations } from "../helpers/london-store"
import { createAdminHeaders } from "../helpers/admin-auth"
import { type BareStore, addMappedLocations, seedBareStore, stockUp } from "../helpers/bare-store"
import { MUG_SKU, TEE_SKU } from "../helpers/seed-store"
import { TEST_API_KEY, TEST_WEBHOOK_SECRET, useSimulator } from "../helpers/simulator"
import { Storefront, londonShopper, placeOrder } from "../helpers/storefront"
import { waitForTask } from "../helpers/orders"

jest.setTimeout(120_000)

const { simulator } = useSimulator({ locations: londonTestLocations() })

/** A store the merchant opens at the service while the app runs. */
const soho = (): SimLocation => ({
  fulfilmentLocationId: "fl_0100",
  externalLocationId: "store-soho",
  name: "Soho store",
  address: { line1: "5 Carnaby Street", city: "London", postcode: "W1F 9PB", country: "United Kingdom" },
  operatingHours: alwaysOpenHours(),
  collectionEnabled: true,
  stock: { [TEE_SKU]: 10, [MUG_SKU]: 10 },
})

/** The service's id of a London location. */
const serviceId = (externalId: string) => simulator.location(externalId).fulfilmentLocationId

/** A London shopper's cart holding one of the store's first product. */
async function londonCart(shop: Storefront, regionId: string) {
  const { data } = await shop.get<{ products: { variants: { id: string }[] }[] }>("/store/products?fields=*variants")
  return shop.createCart({
    region_id: regionId,
    email: "ada@example.com",
    shipping_address: londonShopper,
    items: [{ variant_id: data.products[0].variants[0].id, quantity: 1 }],
  })
}

type Rate = { shipping_option_id: string; name: string; type: string; available: boolean }

medusaIntegrationTestRunner({
  testSuite: ({ api: untyped, getContainer }) => {
    const api = untyped as AxiosInstance
    // Every test starts from this store: the plugin installed, nothing set up, no stock location.
    let store: BareStore
    let admin: { headers: Record<string, string> }
    const get = <T = Record<string, unknown>>(path: string) =>
      api.get<T>(path, { ...admin, validateStatus: () => true })
    const post = <T = Record<string, unknown>>(path: string, body: unknown = {}) =>
      api.post<T>(path, body, { ...admin, validateStatus: () => true })
    const del = <T = Record<string, unknown>>(path: string) =>
      api.delete<T>(path, { ...admin, validateStatus: () => true })
    const overview = async () => (await get<LastmileOverview>("/admin/lastmile")).data
    const query = () => getContainer().resolve(ContainerRegistrationKeys.QUERY)
    const locationIn = (o: LastmileOverview, externalId: string) =>
      o.locations.find((l) => l.external_location_id === externalId) as LocationView

    /** The London merchant mapped the old way (address metadata) and set up with an empty body. */
    async function london() {
      const locations = await addMappedLocations(getContainer(), store, londonTestLocations())
      const setup = await post<SetupReport>("/admin/lastmile/setup")
      expect(setup.status).toBe(200)
      return { ...store, locations, setup: setup.data }
    }

    async function stockLocation(id: string) {
      const { data } = await query().graph({
        entity: "stock_location",
        fields: ["id", "name", "address.*", "sales_channels.id"],
        filters: { id },
      })
      return data[0] as {
        id: string
        name: string
        address: Record<string, unknown> | null
        sales_channels: { id: string }[]
      }
    }

    async function createSalesChannel(name: string): Promise<string> {
      const created = await post<{ sales_channel: { id: string } }>("/admin/sales-channels", { name })
      expect(created.status).toBe(200)
      return created.data.sales_channel.id
    }

    beforeAll(async () => {
      store = await seedBareStore(getContainer())
      admin = await createAdminHeaders(getContainer())
    })

    beforeEach(() => {
      // Tests change the service's locations; each starts from the London merchant's.
      simulator.clearFaults()
      simulator.setLocations(londonTestLocations())
    })

    it("sets up the shipping options and the return option on the dispatch location once: a second run creates nothing", async () => {
      const demo = await london()
      expect(demo.setup.created).toEqual(
        expect.arrayContaining([
          "Park Royal warehouse: lastmile provider enabled",
          "Park Royal warehouse: shipping service zone (GB)",
          "Park Royal warehouse: Last-mile next day delivery option",
          "Park Royal warehouse: return option",
          "Camden store: pickup fulfillment set",
          "Camden store: click & collect option",
        ])
      )
      expect(demo.setup.created.filter((c) => c.endsWith("click & collect option"))).toHaveLength(10)
      const again = await post<SetupReport>("/admin/lastmile/setup")
      expect(again.status).toBe(200)
      expect(again.data.created).toEqual([])
      expect(again.data.unchanged).toHaveLength(12)
      expect(again.data.unchanged).toContain("Park Royal warehouse: return option")

      // The options work at checkout: delivery and every store are priced.
      const shop = new Storefront(api, demo.publishableKey)
      const cart = await londonCart(shop, demo.regionId)
      const rates = await shop.get<{ rates: Rate[] }>(`/store/lastmile/rates?cart_id=${cart.id}`)
      expect(rates.data.rates.filter((r) => r.available)).toHaveLength(11)
    })

    it("shows the connection, webhook URL, locations, sales channels and checks, and never the API key", async () => {
      const demo = await london()
      const response = await get<LastmileOverview>("/admin/lastmile")
      expect(response.status).toBe(200)
      expect(response.data.connection).toMatchObject({ ok: true })
      expect(response.data.webhook).toMatchObject({
        url: `${api.defaults.baseURL}/hooks/lastmile/${TEST_WEBHOOK_SECRET}`,
        url_source: "request",
      })
      // Without backend_url or trust_forwarded_headers, whoever asks cannot make it point elsewhere.
      const forged = await api.get<LastmileOverview>("/admin/lastmile", {
        ...admin,
        headers: { ...admin.headers, "x-forwarded-proto": "https", "x-forwarded-host": "evil.example" },
      })
      expect(forged.data.webhook).toMatchObject({ url: response.data.webhook.url, url_source: "request" })
      expect(response.data.locations).toHaveLength(11)
      const camden = locationIn(response.data, "store-camden")
      expect(camden).toMatchObject({
        collection_enabled: true,
        has_collection_option: true,
        cannot_link: null,
        cannot_create: null,
        stock_location: {
          name: "Camden store",
          matched_by: "external_location_id",
          sales_channels: [{ id: demo.salesChannelId, name: "Webshop" }],
        },
      })
      expect(response.data.dispatch_location).toMatchObject({ name: "Park Royal warehouse" })
      // Which Medusa location sells through which channel, and which service location it is.
      expect(response.data.stock_locations).toHaveLength(11)
      expect(response.data.stock_locations.find((s) => s.id === demo.locations["store-camden"])).toEqual({
        id: demo.locations["store-camden"],
        name: "Camden store",
        external_location_id: "store-camden",
        fulfilment_location_id: camden.fulfilment_location_id,
        sales_channels: [{ id: demo.salesChannelId, name: "Webshop" }],
        has_address: true,
      })

      // The stock location widget's view of one store.
      const widget = await get(`/admin/lastmile/stock-locations/${camden.stock_location!.id}`)
      expect(widget.data).toMatchObject({
        connected: true,
        is_dispatch: false,
        location: { external_location_id: "store-camden", collection_enabled: true },
      })
      expect(response.data.checks.every((c) => c.ok)).toBe(true)
      expect(JSON.stringify(response.data)).not.toContain(TEST_API_KEY)
      expect((await api.get("/admin/lastmile", { validateStatus: () => true })).status).toBe(401)
    })

    it("switches collection off at the service and flags the store that still offers it; an unknown location is a 404", async () => {
      await london()
      const camden = serviceId("store-camden")
      const off = await post(`/admin/lastmile/locations/${camden}/collection`, { enabled: false })
      expect(off.status).toBe(200)
      expect(off.data).toEqual({ fulfilment_location_id: camden, collection_enabled: false })
      expect(simulator.location("store-camden").collectionEnabled).toBe(false)
      const checks = (await overview()).checks
      expect(checks.find((c) => c.id === "store_not_enabled")).toMatchObject({
        ok: false,
        message: expect.stringContaining("Camden store"),
      })
      const bad = await post<{ message: string }>(`/admin/lastmile/locations/${camden}/collection`, { enabled: "no" })
      expect(bad.status).toBe(400)
      expect(bad.data.message).toContain("'boolean' for field 'enabled'")
      await post(`/admin/lastmile/locations/${camden}/collection`, { enabled: true })
      expect(simulator.location("store-camden").collectionEnabled).toBe(true)

      const unknown = await post<{ message: string }>("/admin/lastmile/locations/fl_9999/collection", { enabled: true })
      expect(unknown.status).toBe(404)
      expect(unknown.data.message).toBe("The service has no fulfilment location fl_9999")
    })

    it("creates, links and unlinks stock locations for the service's locations, and says why when it cannot", async () => {
      const before = await overview()
      expect(before.locations).toHaveLength(11)
      expect(before.locations.every((l) => !l.stock_location && !l.cannot_link && !l.cannot_create)).toBe(true)
      expect(before.stock_locations).toEqual([])

      // Create from the service: its name and address, its external id set.
      const warehouse = await post<LocationMappingResult>(
        `/admin/lastmile/locations/${serviceId("warehouse")}/stock-location`
      )
      expect(warehouse.status).toBe(200)
      expect(warehouse.data).toMatchObject({
        fulfilment_location_id: serviceId("warehouse"),
        external_location_id: "warehouse",
        changed: true,
        stock_location: { name: "Park Royal warehouse" },
      })
      const warehouseId = warehouse.data.stock_location!.id
      expect((await stockLocation(warehouseId)).address).toMatchObject({
        address_1: "Unit 7, Abbey Road",
        city: "London",
        postal_code: "NW10 7SJ",
        country_code: "gb",
        metadata: { external_location_id: "warehouse" },
      })
      const twice = await post<{ message: string }>(
        `/admin/lastmile/locations/${serviceId("warehouse")}/stock-location`
      )
      expect(twice.status).toBe(400)
      expect(twice.data.message).toBe(
        "Park Royal warehouse is already linked to Park Royal warehouse: unlink it first."
      )

      // Link an existing stock location: its other metadata stays.
      const shop = await post<{ stock_location: { id: string } }>("/admin/stock-locations", {
        name: "Camden shop",
        address: {
          address_1: "201 Camden High Street",
          city: "London",
          country_code: "gb",
          metadata: { opened: "2019" },
        },
      })
      const shopId = shop.data.stock_location.id
      const linked = await post<LocationMappingResult>(`/admin/lastmile/locations/${serviceId("store-camden")}/link`, {
        stock_location_id: shopId,
      })
      expect(linked.status).toBe(200)
      expect(linked.data).toMatchObject({ changed: true, stock_location: { id: shopId, name: "Camden shop" } })
      expect((await stockLocation(shopId)).address?.metadata).toEqual({
        opened: "2019",
        external_location_id: "store-camden",
      })
      const same = await post<LocationMappingResult>(`/admin/lastmile/locations/${serviceId("store-camden")}/link`, {
        stock_location_id: shopId,
      })
      expect(same.data).toMatchObject({ changed: false, message: "Camden shop is already linked to Camden store." })

      // One stock location per service location, and the other way round: refused with the reason.
      const taken = await post<{ message: string }>(`/admin/lastmile/locations/${serviceId("store-shoreditch")}/link`, {
        stock_location_id: shopId,
      })
      expect(taken.status).toBe(400)
      expect(taken.data.message).toBe("Camden shop is already linked to Camden store: unlink it there first.")
      const elsewhere = await post<{ message: string }>(`/admin/lastmile/locations/${serviceId("store-camden")}/link`, {
        stock_location_id: warehouseId,
      })
      expect(elsewhere.status).toBe(400)
      expect(elsewhere.data.message).toBe("Camden store is already linked to Camden shop: unlink it first.")

      // A stock location without an address gets the service's.
      const popUp = await post<{ stock_location: { id: string } }>("/admin/stock-locations", { name: "Pop-up" })
      expect(popUp.status).toBe(200)
      const popUpId = popUp.data.stock_location.id
      const given = await post<LocationMappingResult>(
        `/admin/lastmile/locations/${serviceId("store-shoreditch")}/link`,
        {
          stock_location_id: popUpId,
        }
      )
      expect(given.data).toMatchObject({
        changed: true,
        message: "Linked Shoreditch store to Pop-up. Pop-up had no address and was given the service's.",
      })
      expect((await stockLocation(popUpId)).address).toMatchObject({
        address_1: "45 Great Eastern Street",
        postal_code: "EC2A 3HP",
        country_code: "gb",
        metadata: { external_location_id: "store-shoreditch" },
      })

      // The service gives no usable address, or no external id: each control says why.
      // Past the control API's checks: an address shape the spec does not promise.
      Object.assign(simulator.location("store-brixton"), { address: { city: "London" } })
      simulator.addLocation({ ...soho(), externalLocationId: null })
      const shown = await overview()
      const noAddress =
        "The service gives Brixton store no usable address (it lacks a street line and a country): create the stock location in Settings → Locations and link it instead."
      expect(locationIn(shown, "store-brixton").cannot_create).toBe(noAddress)
      const unmapped = shown.locations.find((l) => l.fulfilment_location_id === "fl_0100")!
      expect(unmapped.cannot_link).toBe(
        "The service gives Soho store no externalLocationId, which is what links it to a Medusa stock location: set one at the service first."
      )
      const brixton = await post<{ message: string }>(
        `/admin/lastmile/locations/${serviceId("store-brixton")}/stock-location`
      )
      expect([brixton.status, brixton.data.message]).toEqual([400, noAddress])
      const bare = (await post<{ stock_location: { id: string } }>("/admin/stock-locations", { name: "Kiosk" })).data
      const noHome = await post<{ message: string }>(`/admin/lastmile/locations/${serviceId("store-brixton")}/link`, {
        stock_location_id: bare.stock_location.id,
      })
      expect([noHome.status, noHome.data.message]).toEqual([
        400,
        "Kiosk has no address to hold the link, and the service gives Brixton store no usable address (it lacks a street line and a country): add an address to Kiosk in Settings → Locations first.",
      ])
      const noId = await post<{ message: string }>("/admin/lastmile/locations/fl_0100/link", {
        stock_location_id: shopId,
      })
      expect([noId.status, noId.data.message]).toEqual([400, unmapped.cannot_link])

      // Unknown ids are 404s; a malformed body is a 400.
      const camden = serviceId("store-camden")
      const answers = await Promise.all([
        post("/admin/lastmile/locations/fl_9999/link", { stock_location_id: shopId }),
        post(`/admin/lastmile/locations/${camden}/link`, { stock_location_id: "sloc_missing" }),
        post("/admin/lastmile/locations/fl_9999/stock-location"),
        del("/admin/lastmile/locations/fl_9999/link"),
        post(`/admin/lastmile/locations/${camden}/link`, {}),
        post(`/admin/lastmile/locations/${camden}/link`, { stock_location_id: 7 }),
        post(`/admin/lastmile/locations/${camden}/link`, { stock_location_id: shopId, move: true }),
      ])
      expect(answers.map((a) => a.status)).toEqual([404, 404, 404, 404, 400, 400, 400])

      // Unlink: only the external id goes.
      const unlinked = await del<LocationMappingResult>(`/admin/lastmile/locations/${camden}/link`)
      expect(unlinked.status).toBe(200)
      expect(unlinked.data).toMatchObject({
        changed: true,
        stock_location: null,
        message: "Unlinked Camden store from Camden shop.",
      })
      expect((await stockLocation(shopId)).address?.metadata).toEqual({ opened: "2019" })
      expect((await del<LocationMappingResult>(`/admin/lastmile/locations/${camden}/link`)).data).toMatchObject({
        changed: false,
      })

      // The page's view: each Medusa location with its service location and sales channels.
      await post(`/admin/stock-locations/${warehouseId}/sales-channels`, { add: [store.salesChannelId] })
      const after = await overview()
      expect(locationIn(after, "store-camden").stock_location).toBeNull()
      expect(locationIn(after, "warehouse").stock_location).toMatchObject({
        id: warehouseId,
        sales_channels: [{ id: store.salesChannelId, name: "Webshop" }],
      })
      const summary = Object.fromEntries(after.stock_locations.map((s) => [s.name, s]))
      expect(summary["Park Royal warehouse"]).toMatchObject({
        fulfilment_location_id: serviceId("warehouse"),
        sales_channels: [{ id: store.salesChannelId, name: "Webshop" }],
      })
      expect(summary["Camden shop"]).toMatchObject({ fulfilment_location_id: null, external_location_id: null })
      expect(summary["Pop-up"]).toMatchObject({
        fulfilment_location_id: serviceId("store-shoreditch"),
        has_address: true,
      })
      expect(summary.Kiosk).toMatchObject({ fulfilment_location_id: null, has_address: false, sales_channels: [] })
    })

    it("sets up a store mapped from the dashboard: the return option where the merchant picks, the locations in the ticked channels, once", async () => {
      const ids: Record<string, string> = {}
      for (const location of londonTestLocations()) {
        const created = await post<LocationMappingResult>(
          `/admin/lastmile/locations/${location.fulfilmentLocationId}/stock-location`
        )
        expect(created.status).toBe(200)
        ids[location.externalLocationId!] = created.data.stock_location!.id
      }
      await stockUp(getContainer(), Object.values(ids))
      const shopFloor = await createSalesChannel("Shop floor")
      const body = { return_location_id: ids["store-camden"], sales_channel_ids: [store.salesChannelId, shopFloor] }

      const setup = await post<SetupReport>("/admin/lastmile/setup", body)
      expect(setup.status).toBe(200)
      expect(setup.data.skipped).toEqual([])
      expect(setup.data.created).toEqual(
        expect.arrayContaining([
          "Park Royal warehouse: Last-mile next day delivery option",
          "Camden store: click & collect option",
          "Camden store: shipping fulfillment set",
          "Camden store: shipping service zone (GB)",
          "Camden store: return option",
          "Park Royal warehouse: in sales channel Webshop",
          "Camden store: in sales channel Shop floor",
        ])
      )
      expect(setup.data.created.filter((c) => c.includes(": in sales channel "))).toHaveLength(22)
      expect(setup.data.created).not.toContain("Park Royal warehouse: return option")

      // The return option: flat 0 in the region's currency, return rules, on Camden's new shipping zone.
      const { data: options } = await get<{
        shipping_options: {
          id: string
          price_type: string
          provider_id: string
          shipping_profile_id: string
          service_zone_id: string
          data: { id?: string }
          prices: { amount: number; currency_code: string }[]
          rules: { attribute: string; operator: string; value: string }[]
        }[]
      }>("/admin/shipping-options?limit=100&fields=*prices,*rules,+data,+service_zone_id,+shipping_profile_id")
      const returns = options.shipping_options.filter((o) => o.data?.id === "lastmile-return")
      expect(returns).toHaveLength(1)
      const { data: camdenSets } = await query().graph({
        entity: "stock_location",
        fields: ["fulfillment_sets.type", "fulfillment_sets.service_zones.id"],
        filters: { id: ids["store-camden"] },
      })
      const camdenShippingZone = (
        camdenSets[0].fulfillment_sets as { type: string; service_zones: { id: string }[] }[]
      ).find((s) => s.type === "shipping")!.service_zones[0].id
      const [profile] = await getContainer().resolve("fulfillment").listShippingProfiles({ type: "default" })
      expect(returns[0]).toMatchObject({
        price_type: "flat",
        provider_id: "lastmile_lastmile",
        shipping_profile_id: profile.id,
        service_zone_id: camdenShippingZone,
        prices: [expect.objectContaining({ amount: 0, currency_code: "gbp" })],
      })
      expect(returns[0].rules.map(({ attribute, operator, value }) => ({ attribute, operator, value }))).toEqual(
        expect.arrayContaining([
          { attribute: "is_return", operator: "eq", value: "true" },
          { attribute: "enabled_in_store", operator: "eq", value: "true" },
        ])
      )
      for (const id of Object.values(ids)) {
        expect((await stockLocation(id)).sales_channels.map((c) => c.id).sort()).toEqual(
          [store.salesChannelId, shopFloor].sort()
        )
      }

      // Again: nothing new, and everything reported in place; an empty body keeps Camden's return option.
      const again = await post<SetupReport>("/admin/lastmile/setup", body)
      expect(again.data.created).toEqual([])
      expect(again.data.unchanged).toContain("Camden store: return option")
      expect(again.data.unchanged.filter((c) => c.includes(": in sales channel "))).toHaveLength(22)
      const empty = await api.post<SetupReport>("/admin/lastmile/setup", undefined, admin)
      expect(empty.data.created).toEqual([])
      expect(empty.data.unchanged).toContain("Camden store: return option")

      // Unknown ids are 404s; a malformed body is a 400.
      const missingLocation = await post<{ message: string }>("/admin/lastmile/setup", {
        return_location_id: "sloc_missing",
      })
      expect([missingLocation.status, missingLocation.data.message]).toEqual([
        404,
        "Stock location with id: sloc_missing was not found",
      ])
      const missingChannel = await post<{ message: string }>("/admin/lastmile/setup", {
        sales_channel_ids: [shopFloor, "sc_missing"],
      })
      expect([missingChannel.status, missingChannel.data.message]).toEqual([
        404,
        "Sales channel with id: sc_missing was not found",
      ])
      expect((await post("/admin/lastmile/setup", { sales_channel_ids: "sc_1" })).status).toBe(400)
      expect((await post("/admin/lastmile/setup", { everything: true })).status).toBe(400)

      // The store works: delivery and every store are offered.
      const shop = new Storefront(api, store.publishableKey)
      const cart = await londonCart(shop, store.regionId)
      const rates = await shop.get<{ rates: Rate[] }>(`/store/lastmile/rates?cart_id=${cart.id}`)
      expect(rates.data.rates.filter((r) => r.available)).toHaveLength(11)
    })

    it("undoes the whole setup when its last step fails: no option, set, zone or link is left", async () => {
      const locations = await addMappedLocations(getContainer(), store, londonTestLocations())
      const shopFloor = await createSalesChannel("Shop floor")
      const input = { return_location_id: locations["store-camden"], sales_channel_ids: [shopFloor] }
      const state = async () => {
        const graph = (entity: string, fields: string[]) => query().graph({ entity, fields })
        const [options, sets, zones, profiles, stock] = await Promise.all([
          graph("shipping_option", ["id"]),
          graph("fulfillment_set", ["id"]),
          graph("service_zone", ["id"]),
          graph("shipping_profile", ["id"]),
          graph("stock_location", ["id", "fulfillment_providers.id", "fulfillment_sets.id", "sales_channels.id"]),
        ])
        const links = (stock.data as Record<string, { id: string }[] | undefined>[]).map((s) => ({
          providers: (s.fulfillment_providers ?? []).length,
          sets: (s.fulfillment_sets ?? []).length,
          channels: (s.sales_channels ?? []).length,
        }))
        return {
          options: options.data.length,
          sets: sets.data.length,
          zones: zones.data.length,
          profiles: profiles.data.length,
          links,
        }
      }
      const before = await state()
      expect(before).toMatchObject({ options: 0, sets: 0, zones: 0 })

      const workflow = setupShippingOptionsWorkflow(getContainer())
      // After the last step (the lock's release): everything the run creates exists when it throws.
      workflow.appendAction("throw", "release-lock-step", {
        invoke: async () => {
          throw new Error("boom")
        },
      })
      const { errors } = await workflow.run({ input, throwOnError: false })
      expect(errors.map((e) => (e.error as { message?: string }).message)).toEqual(["boom"])
      expect(await state()).toEqual(before)

      // The lock was released with the rest: the same setup runs, and creates what was undone.
      const setup = await post<SetupReport>("/admin/lastmile/setup", input)
      expect(setup.status).toBe(200)
      expect(setup.data.created).toEqual(
        expect.arrayContaining(["Camden store: return option", "Camden store: in sales channel Shop floor"])
      )
      const after = await state()
      expect(after.options).toBe(12)
      expect(after.links.every((l) => l.providers === 1 && l.channels === 2)).toBe(true)
    })

    it("undoes a link, an address given and a stock location created when a later step fails", async () => {
      const container = getContainer()
      // Each run fails after its last step (the lock's release): everything it changed is undone.
      const failing = <W extends Pick<ReturnType<typeof linkLastmileLocationWorkflow>, "appendAction">>(
        workflow: W
      ): W => {
        workflow.appendAction("throw", "release-lock-step", {
          invoke: async () => {
            throw new Error("boom")
          },
        })
        return workflow
      }
      const camden = String(serviceId("store-camden"))
      const shop = (
        await post<{ stock_location: { id: string } }>("/admin/stock-locations", {
          name: "Camden shop",
          address: { address_1: "201 Camden High Street", country_code: "gb", metadata: { opened: "2019" } },
        })
      ).data.stock_location.id
      const popUp = (await post<{ stock_location: { id: string } }>("/admin/stock-locations", { name: "Pop-up" })).data
        .stock_location.id

      const link = await failing(linkLastmileLocationWorkflow(container)).run({
        input: { fulfilment_location_id: camden, stock_location_id: shop },
        throwOnError: false,
      })
      expect(link.errors).toHaveLength(1)
      expect((await stockLocation(shop)).address?.metadata).toEqual({ opened: "2019" })

      const attach = await failing(linkLastmileLocationWorkflow(container)).run({
        input: { fulfilment_location_id: camden, stock_location_id: popUp },
        throwOnError: false,
      })
      expect(attach.errors).toHaveLength(1)
      expect(await stockLocation(popUp)).toMatchObject({ id: popUp, name: "Pop-up" })
      expect((await stockLocation(popUp)).address).toBeUndefined()

      const create = await failing(createLastmileStockLocationWorkflow(container)).run({
        input: { fulfilment_location_id: camden },
        throwOnError: false,
      })
      expect(create.errors).toHaveLength(1)
      expect((await overview()).stock_locations.map((s) => s.name).sort()).toEqual(["Camden shop", "Pop-up"])

      // Nothing held the lock: the same link goes through, and an unlink undone leaves it in place.
      expect((await post(`/admin/lastmile/locations/${camden}/link`, { stock_location_id: shop })).status).toBe(200)
      const unlink = await failing(unlinkLastmileLocationWorkflow(container)).run({
        input: { fulfilment_location_id: camden },
        throwOnError: false,
      })
      expect(unlink.errors).toHaveLength(1)
      expect((await stockLocation(shop)).address?.metadata).toEqual({
        opened: "2019",
        external_location_id: "store-camden",
      })
    })

    it("shows a location the merchant adds at the service after boot, and links, sets up and prices it", async () => {
      const demo = await london()
      simulator.addLocation(soho())

      const added = await overview()
      expect(added.locations).toHaveLength(12)
      expect(locationIn(added, "store-soho")).toMatchObject({
        name: "Soho store",
        stock_location: null,
        cannot_create: null,
      })
      expect(added.checks.find((c) => c.id === "unmatched_location")).toMatchObject({
        ok: false,
        message: expect.stringContaining("Soho store"),
      })

      const created = await post<LocationMappingResult>("/admin/lastmile/locations/fl_0100/stock-location")
      expect(created.status).toBe(200)
      const sohoId = created.data.stock_location!.id
      await stockUp(getContainer(), [sohoId])
      const setup = await post<SetupReport>("/admin/lastmile/setup", { sales_channel_ids: [demo.salesChannelId] })
      expect(setup.data.created).toEqual([
        "Soho store: lastmile provider enabled",
        "Soho store: pickup fulfillment set",
        "Soho store: pickup service zone (GB)",
        "Soho store: click & collect option",
        "Soho store: in sales channel Webshop",
      ])

      // The next quote offers it, priced.
      const shop = new Storefront(api, demo.publishableKey)
      const cart = await londonCart(shop, demo.regionId)
      const rates = await shop.get<{ rates: Rate[] }>(`/store/lastmile/rates?cart_id=${cart.id}`)
      expect(rates.data.rates.find((r) => r.name === "Collect from Soho store")).toMatchObject({
        type: "collection",
        available: true,
      })

      // Renamed, then closed at the service: the page follows.
      simulator.updateLocation("store-soho", { name: "Soho flagship" })
      expect(locationIn(await overview(), "store-soho")).toMatchObject({
        name: "Soho flagship",
        stock_location: { id: sohoId },
      })
      simulator.removeLocation("store-soho")
      const removed = await overview()
      expect(removed.locations.some((l) => l.external_location_id === "store-soho")).toBe(false)
      expect(removed.unmatched_stock_locations).toEqual([
        { id: sohoId, name: "Soho store", external_location_id: "store-soho" },
      ])
    })

    it("shows an order's task, retries a failed booking and refreshes its status", async () => {
      const demo = await london()
      const shop = new Storefront(api, demo.publishableKey)
      const cart = await londonCart(shop, demo.regionId)
      const { data } = await shop.get<{ rates: { shipping_option_id: string; type: string }[] }>(
        `/store/lastmile/rates?cart_id=${cart.id}`
      )
      const nextDay = data.rates.find((r) => r.type === "delivery")!
      expect(
        (await shop.post(`/store/carts/${cart.id}/shipping-methods`, { option_id: nextDay.shipping_option_id })).status
      ).toBe(200)
      simulator.addFault({ operation: "bookDelivery", kind: "status", status: 503 })
      const order = await placeOrder(shop, cart.id)
      const failed = await waitForTask(getContainer(), order.id)
      expect(failed.status).toBe("failed")

      const shown = await get<{ tasks: Record<string, unknown>[] }>(`/admin/lastmile/orders/${order.id}`)
      expect(shown.data.tasks[0]).toMatchObject({ kind: "delivery", status: "failed", last_error: expect.any(String) })

      simulator.clearFaults()
      const retried = await post<{ tasks: { task_id: string }[] }>(`/admin/lastmile/orders/${order.id}/retry`)
      expect(retried.status).toBe(200)
      expect(retried.data.tasks[0]).toMatchObject({
        status: "booked",
        tracking_url: expect.stringContaining("/track/"),
      })
      expect((await post(`/admin/lastmile/orders/${order.id}/retry`)).status).toBe(400)

      simulator.configure({ webhookUrl: undefined })
      simulator.setTaskStatus(Number(retried.data.tasks[0].task_id), "IN_TRANSIT")
      const refreshed = await post<{ tasks: unknown[] }>(`/admin/lastmile/orders/${order.id}/refresh`)
      expect(refreshed.data.tasks[0]).toMatchObject({ service_status: "IN_TRANSIT", tracking_state: "shipped" })
    })
  },
})
