import { distanceKm, parseNear, postcodeTier } from "../store-order"
import { MAX_INSTRUCTIONS_LENGTH, planPickupChange, readPickupSettings, readStorePosition } from "../pickup-settings"
import { nearestFirst, storesInPostcodeOrder } from "../../checkout/store-rows"
import type { LastmileOptionRate } from "../../checkout/option-rate"

const row = (id: string, name: string, type: "delivery" | "collection" = "collection") =>
  ({ shipping_option_id: id, name, type }) as LastmileOptionRate

describe("the nearest stores first", () => {
  it("measures the distance between two positions and reads a storefront's near", () => {
    // Trafalgar Square to Covent Garden: about 600 m.
    expect(distanceKm({ latitude: 51.508, longitude: -0.1281 }, { latitude: 51.5129, longitude: -0.1243 })).toBe(0.6)
    expect(parseNear("51.4613,-0.1156")).toEqual({ latitude: 51.4613, longitude: -0.1156 })
    expect(parseNear(" 51.5 , -0.1 ")).toEqual({ latitude: 51.5, longitude: -0.1 })
    for (const bad of ["91,0", "0,181", "51.5", "a,b", "51.5,-0.1,3", ""]) {
      expect(parseNear(bad)).toBeNull()
    }
  })

  it("ranks postcodes by district, then area (UK by the postcode library; elsewhere by their leading characters)", () => {
    const shopper = { postal_code: "sw1a 2aa", country_code: "GB" }
    expect(postcodeTier(shopper, { postal_code: "SW1P 3BU", country_code: "gb" })).toBe(2)
    expect(postcodeTier(shopper, { postal_code: "SW9 8JX", country_code: "gb" })).toBe(1)
    expect(postcodeTier(shopper, { postal_code: "NW1 7BT", country_code: "gb" })).toBe(0)
    expect(postcodeTier(shopper, { postal_code: "75001", country_code: "fr" })).toBe(0)
    expect(
      postcodeTier({ postal_code: "75011", country_code: "fr" }, { postal_code: "75002", country_code: "fr" })
    ).toBe(2)
    expect(
      postcodeTier({ postal_code: "not a code", country_code: "gb" }, { postal_code: "SW9 8JX", country_code: "gb" })
    ).toBe(0)
  })

  it("orders deliveries by name, then stores by postcode, then by distance when near is given", () => {
    const rates = [row("c", "Camden"), row("b", "Brixton"), row("n", "Next day", "delivery"), row("a", "Aldgate")]
    const places = new Map([
      ["c", { postal_code: "NW1 7BT", country_code: "gb" }],
      ["b", { postal_code: "SW9 8JX", country_code: "gb" }],
      ["a", { postal_code: "E1 7AA", country_code: "gb" }],
    ])
    const ordered = storesInPostcodeOrder(rates, { postal_code: "SW4 7UL", country_code: "gb" }, places)
    expect(ordered.map((r) => r.name)).toEqual(["Next day", "Brixton", "Aldgate", "Camden"])
    const near = nearestFirst(
      { cart_id: "c1", currency_code: "gbp", eligibility: null, rates: ordered },
      { latitude: 51.5392, longitude: -0.1426 },
      new Map([
        ["c", { latitude: 51.5392, longitude: -0.1426 }],
        ["a", { latitude: 51.5154, longitude: -0.0722 }],
      ])
    )
    expect(near.rates.map((r) => [r.name, r.distance_km])).toEqual([
      ["Next day", undefined],
      ["Camden", 0],
      ["Aldgate", 5.5],
      ["Brixton", null],
    ])
  })
})

describe("a store's pickup settings", () => {
  it("reads what a stock location keeps leniently, and plans a change cleaned", () => {
    expect(readPickupSettings(null)).toEqual({ instructions: null, closed_dates: [] })
    expect(
      readPickupSettings({ lastmile_pickup: { instructions: 4, closed_dates: ["2026-12-25", "x", "2026-12-24"] } })
    ).toEqual({
      instructions: null,
      closed_dates: ["2026-12-24", "2026-12-25"],
    })
    expect(readStorePosition({ latitude: "51.46", longitude: -0.11 })).toEqual({ latitude: 51.46, longitude: -0.11 })
    expect(readStorePosition({ latitude: "", longitude: "" })).toBeNull()
    expect(readStorePosition({ latitude: 95, longitude: 0 })).toBeNull()

    const current = { pickup: { instructions: null, closed_dates: [] }, position: null, has_address: true }
    const planned = planPickupChange(current, {
      instructions: " Ring the\u202e bell\n at the side door ",
      closed_dates: ["2026-12-26", "2026-12-25"],
    })
    expect(planned).toEqual({
      ok: true,
      plan: {
        pickup: { instructions: "Ring the bell at the side door", closed_dates: ["2026-12-25", "2026-12-26"] },
        position: null,
        address_metadata: {
          lastmile_pickup: {
            instructions: "Ring the bell at the side door",
            closed_dates: ["2026-12-25", "2026-12-26"],
          },
        },
        metadata: null,
      },
    })
    // A position alone needs no address; clearing it removes the keys Medusa's way.
    expect(
      planPickupChange({ ...current, has_address: false }, { position: { latitude: 1, longitude: 2 } })
    ).toMatchObject({
      ok: true,
      plan: { address_metadata: null, metadata: { latitude: 1, longitude: 2 } },
    })
    expect(planPickupChange({ ...current, position: { latitude: 1, longitude: 2 } }, { position: null })).toMatchObject(
      {
        ok: true,
        plan: { metadata: { latitude: "", longitude: "" } },
      }
    )
    expect(planPickupChange({ ...current, has_address: false }, { instructions: "x" })).toMatchObject({ ok: false })
    expect(planPickupChange(current, { instructions: "x".repeat(MAX_INSTRUCTIONS_LENGTH + 1) })).toMatchObject({
      ok: false,
    })
  })
})
