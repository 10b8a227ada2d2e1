import { quoteRequest } from "./service-requests"
import { callSimulator, testStore } from "./simulator-calls"
import { londonHours } from "../defaults"
import { LastmileSimulator } from "../server"
import { SimulatorError } from "../simulator-state"
import type { SimLocation } from "../types"
import { control } from "./sim-helpers"

const KEY = "sim_key_for_location_tests"

interface Rate {
  rateCode: string
  name?: string
  merchantLocationId?: string
}

describe("LastmileSimulator, the merchant changing locations after boot", () => {
  let sim: LastmileSimulator

  beforeEach(async () => {
    sim = new LastmileSimulator({
      config: { apiKey: KEY },
      clock: () => Date.parse("2026-11-23T12:00:00Z"),
      locations: [testStore("a", { "SKU-A": 5 }), testStore("b", { "SKU-A": 5, "SKU-B": 1 })],
    })
    await sim.start()
  })

  afterEach(async () => {
    await sim.stop()
  })

  /** The stores a quote for `lines` offers collection from, by the rates' store field. */
  const collectionStores = async (lines: [string, number][] = [["SKU-A", 1]]) => {
    const { json } = await callSimulator(sim, KEY, "POST", "/task/quotes", quoteRequest({ lines }))
    return (json as { rates: Rate[] }).rates
      .filter((r) => r.rateCode === "SVC_COL")
      .map((r) => r.merchantLocationId)
      .sort()
  }

  const listedIds = async () => {
    const { json } = await callSimulator(sim, KEY, "GET", "/fulfilment-locations")
    return (json as { externalLocationId: string }[]).map((l) => l.externalLocationId)
  }

  const refusal = (fn: () => unknown): SimulatorError => {
    try {
      fn()
    } catch (error) {
      if (error instanceof SimulatorError) {
        return error
      }
      throw error
    }
    throw new Error("expected a SimulatorError")
  }

  describe("adding a location", () => {
    it("adds one through the JS API: it is listed and quoted at once", async () => {
      const added = sim.addLocation(testStore("c", { "SKU-A": 2 }))
      expect(added).toMatchObject({ fulfilmentLocationId: "fl_c", externalLocationId: "store-c" })
      expect(sim.location("store-c")).toBe(added)
      expect(await listedIds()).toEqual(["store-a", "store-b", "store-c"])
      expect(await collectionStores()).toEqual(["store-a", "store-b", "store-c"])
    })

    it("keeps its own copy of what it was given", () => {
      const given = testStore("c", { "SKU-A": 2 })
      sim.addLocation(given)
      given.stock["SKU-A"] = 0
      expect(sim.location("fl_c").stock["SKU-A"]).toBe(2)
    })

    it("refuses a taken fulfilmentLocationId with 409 and an invalid location with 400, in JS", () => {
      const taken = refusal(() => sim.addLocation(testStore("a", {})))
      expect([taken.status, taken.code]).toEqual([409, "LOCATION_EXISTS"])
      const invalid = refusal(() => sim.addLocation({ ...testStore("c", {}), collectionEnabled: "yes" as never }))
      expect(invalid.status).toBe(400)
      expect(invalid.message).toContain("collectionEnabled (a boolean)")
      expect(sim.state.locations).toHaveLength(2)
    })

    it("adds one with POST /__sim/locations (201), defaulting the platform id to null and stock to none", async () => {
      const { externalLocationId: _e, stock: _s, ...bare } = testStore("c", {})
      const { status, json } = await control(sim, "POST", "/__sim/locations", bare)
      expect(status).toBe(201)
      expect(json).toMatchObject({ fulfilmentLocationId: "fl_c", externalLocationId: null, stock: {} })
      expect(sim.location("fl_c").name).toBe("Store C")
      expect(await listedIds()).toEqual(["store-a", "store-b", null])
    })

    it("answers POST /__sim/locations with 409 for a taken fulfilmentLocationId", async () => {
      const { status, json } = await control(sim, "POST", "/__sim/locations", testStore("b", { "SKU-A": 1 }))
      expect(status).toBe(409)
      expect(json.error).toMatchObject({ code: "LOCATION_EXISTS", details: { fulfilmentLocationId: "fl_b" } })
      expect(sim.location("fl_b").stock).toEqual({ "SKU-A": 5, "SKU-B": 1 })
    })

    it("answers 400 naming every missing and invalid field, unknown fields included", async () => {
      const { status, json } = await control(sim, "POST", "/__sim/locations", {
        fulfilmentLocationId: "fl_c",
        address: { line1: "1 Road", city: "London" },
        operatingHours: { ...londonHours(), timezone: "Mars/Olympus" },
        stock: { "SKU-A": -1 },
        colectionEnabled: true,
      })
      expect(status).toBe(400)
      expect(json.error.code).toBe("VALIDATION_ERROR")
      expect(json.error.details.missing).toEqual(["name", "collectionEnabled"])
      expect(json.error.details.invalid).toEqual([
        "address (an object with line1, city, postcode and country strings)",
        expect.stringMatching(/^operatingHours \(/),
        "stock (an object of units (whole numbers from 0) per merchantProductId)",
        "colectionEnabled (not a location field)",
      ])
      expect(sim.state.locations).toHaveLength(2)
    })

    it("refuses opening hours it cannot read: a bad clock or an unknown day", async () => {
      const add = (operatingHours: unknown) =>
        control(sim, "POST", "/__sim/locations", { ...testStore("c", {}), operatingHours })
      expect((await add({ timezone: "Europe/London", days: { mon: { open: "9am", close: "18:00" } } })).status).toBe(
        400
      )
      expect((await add({ timezone: "Europe/London", days: { monday: null } })).status).toBe(400)
      expect(
        (await add({ timezone: "Europe/London", days: { mon: null, sun: { open: "11:00", close: "17:00" } } })).status
      ).toBe(201)
    })

    it("answers 400 to a body that is not one location (a list, or not JSON)", async () => {
      const list = await control(sim, "POST", "/__sim/locations", [testStore("c", {})])
      expect(list.status).toBe(400)
      expect(list.json.error.message).toContain("must be a location")
      expect((await control(sim, "POST", "/__sim/locations", "{not json")).status).toBe(400)
    })
  })

  describe("removing a location", () => {
    it("removes one by fulfilmentLocationId through the JS API and returns it", async () => {
      expect(sim.removeLocation("fl_a").externalLocationId).toBe("store-a")
      expect(await listedIds()).toEqual(["store-b"])
      expect(await collectionStores()).toEqual(["store-b"])
    })

    it("removes one by externalLocationId with DELETE /__sim/locations/:id (200, the removed location)", async () => {
      const { status, json } = await control(sim, "DELETE", "/__sim/locations/store-b")
      expect(status).toBe(200)
      expect(json.fulfilmentLocationId).toBe("fl_b")
      expect(await listedIds()).toEqual(["store-a"])
    })

    it("answers 404 for a location it does not have, in JS and over HTTP", async () => {
      expect(refusal(() => sim.removeLocation("fl_zz")).status).toBe(404)
      const { status, json } = await control(sim, "DELETE", "/__sim/locations/fl_zz")
      expect(status).toBe(404)
      expect(json.error.code).toBe("LOCATION_NOT_FOUND")
      expect(sim.state.locations).toHaveLength(2)
    })
  })

  describe("changing a location's fields", () => {
    it("renames a location through updateLocation, which returns the stored, updated location", async () => {
      const before = sim.location("store-a")
      const updated = sim.updateLocation("store-a", { name: "Store A (Covent Garden)" })
      expect(updated).toBe(before)
      expect(updated.name).toBe("Store A (Covent Garden)")
      const { json } = await callSimulator(sim, KEY, "POST", "/task/quotes", quoteRequest())
      const rate = (json as { rates: Rate[] }).rates.find((r) => r.merchantLocationId === "store-a")
      expect(rate?.name).toBe("Store A (Covent Garden)")
    })

    it("re-maps the platform id and refuses to move onto a taken fulfilmentLocationId", async () => {
      sim.updateLocation("fl_a", { externalLocationId: "store-a2" })
      expect(await listedIds()).toEqual(["store-a2", "store-b"])
      expect(refusal(() => sim.updateLocation("fl_a", { fulfilmentLocationId: "fl_b" })).status).toBe(409)
      expect(refusal(() => sim.updateLocation("fl_a", { name: "" })).status).toBe(400)
      expect(refusal(() => sim.updateLocation("fl_zz", { name: "Z" })).status).toBe(404)
    })

    it("switches collection off with PATCH /__sim/locations/:id {collectionEnabled: false}", async () => {
      const { status, json } = await control(sim, "PATCH", "/__sim/locations/fl_a", { collectionEnabled: false })
      expect(status).toBe(200)
      expect(json).toMatchObject({ fulfilmentLocationId: "fl_a", collectionEnabled: false })
      expect(await collectionStores()).toEqual(["store-b"])
      const listed = await callSimulator(sim, KEY, "GET", "/fulfilment-locations")
      expect((listed.json as { collectionEnabled: boolean }[]).map((l) => l.collectionEnabled)).toEqual([false, true])

      await control(sim, "PATCH", "/__sim/locations/store-a", { collectionEnabled: true })
      expect(await collectionStores()).toEqual(["store-a", "store-b"])
    })

    it("renames through PATCH /__sim/locations/:id, and refuses what is not a location field", async () => {
      expect((await control(sim, "PATCH", "/__sim/locations/fl_b", { name: "Store B (Camden)" })).json.name).toBe(
        "Store B (Camden)"
      )
      const bad = await control(sim, "PATCH", "/__sim/locations/fl_b", { collectionEnabled: "no", nmae: "x" })
      expect(bad.status).toBe(400)
      expect(bad.json.error.details.invalid).toEqual(["collectionEnabled (a boolean)", "nmae (not a location field)"])
      expect(sim.location("fl_b")).toMatchObject({ name: "Store B (Camden)", collectionEnabled: true })
      expect((await control(sim, "PATCH", "/__sim/locations/fl_zz", { name: "Z" })).status).toBe(404)
      expect((await control(sim, "PATCH", "/__sim/locations/fl_b", [])).status).toBe(400)
    })
  })

  describe("changing stock", () => {
    it("merges a stock patch through setStock: the named products change, the others stay", async () => {
      expect(await collectionStores([["SKU-B", 1]])).toEqual(["store-b"])
      const updated = sim.setStock("store-b", { "SKU-B": 0, "SKU-C": 3 })
      expect(updated.stock).toEqual({ "SKU-A": 5, "SKU-B": 0, "SKU-C": 3 })
      expect(await collectionStores([["SKU-B", 1]])).toEqual([])
      expect(await collectionStores([["SKU-C", 3]])).toEqual(["store-b"])
    })

    it("merges with PATCH /__sim/locations/:id/stock and answers the location", async () => {
      const { status, json } = await control(sim, "PATCH", "/__sim/locations/fl_a/stock", { "SKU-B": 4 })
      expect(status).toBe(200)
      expect(json.stock).toEqual({ "SKU-A": 5, "SKU-B": 4 })
      expect(await collectionStores([["SKU-B", 2]])).toEqual(["store-a"])
    })

    it("refuses negative, fractional or non-numeric units, and an unknown location", async () => {
      const bad = await control(sim, "PATCH", "/__sim/locations/fl_a/stock", {
        "SKU-A": -1,
        "SKU-B": 1.5,
        "SKU-C": "3",
      })
      expect(bad.status).toBe(400)
      expect(bad.json.error.details.invalid).toEqual([
        "SKU-A (a whole number of units from 0)",
        "SKU-B (a whole number of units from 0)",
        "SKU-C (a whole number of units from 0)",
      ])
      expect(sim.location("fl_a").stock).toEqual({ "SKU-A": 5 })
      expect((await control(sim, "PATCH", "/__sim/locations/fl_a/stock", [1])).status).toBe(400)
      expect((await control(sim, "PATCH", "/__sim/locations/fl_zz/stock", { "SKU-A": 1 })).status).toBe(404)
      expect(refusal(() => sim.setStock("fl_a", { "SKU-A": -2 })).status).toBe(400)
    })
  })

  it("lists what the merchant changed on GET /__sim/locations", async () => {
    sim.addLocation(testStore("c", {}))
    sim.removeLocation("fl_a")
    sim.setStock("fl_c", { "SKU-A": 1 })
    const { json } = await control(sim, "GET", "/__sim/locations")
    expect(json.map((l: SimLocation) => [l.fulfilmentLocationId, l.stock])).toEqual([
      ["fl_b", { "SKU-A": 5, "SKU-B": 1 }],
      ["fl_c", { "SKU-A": 1 }],
    ])
  })
})
