import { NEAREST_STORES_SHOWN, listStores, toDeliveryStep } from "../index.js"
import { ISLINGTON_INSTRUCTIONS, LIVE_RATES, NEAR_RATES, NOW, POSTCODE_RATES } from "./plugin-answers.js"

const LONDON = { locale: "en-GB", timeZone: "Europe/London", now: NOW }

/** Intl separates with narrow and no-break spaces; compare the words. */
const plain = (text: string | null | undefined) => text?.replace(/\s/g, " ") ?? null

const names = (stores: { storeName: string }[]) => stores.map((store) => store.storeName.replace(/ store$/, ""))

/** The cart holding a store's collection. */
const holding = (shippingOptionId: string) => ({
  id: "cart_1",
  shipping_methods: [{ shipping_option_id: shippingOptionId, data: { provider: "lastmile", kind: "collection" } }],
})

describe("the nearest stores", () => {
  it("shows the nearest five, nearest first, with the rest behind Show all stores", () => {
    const step = toDeliveryStep(NEAR_RATES, LONDON)
    expect(NEAREST_STORES_SHOWN).toBe(5)
    expect(names(step.collection)).toHaveLength(8)
    expect(names(step.stores.shown)).toEqual(["Islington", "Shoreditch", "Covent Garden", "Camden", "Stratford"])
    expect(step.stores).toMatchObject({
      more: 3,
      all: false,
      showAllText: "Show all stores (3 more)",
      byDistance: true,
      summary: "Showing the 5 stores nearest you, of 8.",
    })
  })

  it("shows them all when the shopper asks, or when there are five or fewer", () => {
    const step = toDeliveryStep(NEAR_RATES, { ...LONDON, showAllStores: true })
    expect(names(step.stores.shown)).toEqual(names(step.collection))
    expect(step.stores).toMatchObject({ more: 0, all: true, showAllText: null })
    expect(step.stores.summary).toBe("Showing all 8 stores, nearest you first.")
    // Shown on a click without building the step again.
    expect(listStores(toDeliveryStep(NEAR_RATES, LONDON), { showAll: true }).shown).toHaveLength(8)
    const few = toDeliveryStep(LIVE_RATES, LONDON).stores
    expect(few).toMatchObject({ more: 0, all: true, showAllText: null, byDistance: false, summary: null })
  })

  it("keeps the chosen store shown when it is further away than the five", () => {
    const step = toDeliveryStep(NEAR_RATES, { ...LONDON, cart: holding("so_greenwich") })
    expect(step.selectedKey).toBe("so_greenwich")
    expect(names(step.stores.shown)).toEqual([
      "Islington",
      "Shoreditch",
      "Covent Garden",
      "Camden",
      "Stratford",
      "Greenwich",
    ])
    expect(step.stores).toMatchObject({ more: 2, showAllText: "Show all stores (2 more)" })
    // A store on its way to the cart, or the one the arrow keys reached, is kept too.
    const kept = listStores(toDeliveryStep(NEAR_RATES, LONDON), { keep: ["so_clapham", null] })
    expect(names(kept.shown).slice(-1)).toEqual(["Clapham"])
    expect(listStores(step, { limit: 2 }).shown.map((s) => s.key)).toEqual([
      "so_islington",
      "so_shoreditch",
      "so_greenwich",
    ])
  })

  it("without a position, says the stores shown without calling them the nearest", () => {
    const step = toDeliveryStep(POSTCODE_RATES, LONDON)
    expect(step.stores).toMatchObject({ more: 3, byDistance: false, summary: "Showing 5 of 8 stores." })
    expect(step.collection.every((store) => store.distanceKm === null && store.distanceText === null)).toBe(true)
  })

  it("announces how many stores are shown when some are behind the button", () => {
    expect(plain(toDeliveryStep(NEAR_RATES, LONDON).announcement)).toBe(
      "1 delivery rate and 8 stores to choose from. Showing the 5 stores nearest you, of 8."
    )
    expect(toDeliveryStep(NEAR_RATES, { ...LONDON, showAllStores: true }).announcement).toBe(
      "1 delivery rate and 8 stores to choose from."
    )
  })
})

describe("a store's row", () => {
  it("carries its distance and its own words for collecting there", () => {
    const [islington, shoreditch] = toDeliveryStep(NEAR_RATES, LONDON).collection
    expect(islington).toMatchObject({
      storeName: "Islington store",
      distanceKm: 0.7,
      distanceText: "0.7 km",
      instructions: ISLINGTON_INSTRUCTIONS,
    })
    expect(shoreditch).toMatchObject({ distanceKm: 2.1, distanceText: "2.1 km", instructions: null })
    expect(toDeliveryStep(NEAR_RATES, { ...LONDON, distanceUnit: "mile" }).collection[0].distanceText).toBe("0.4 mi")
  })

  it("is read with its distance when known, and without its instructions, which are its description", () => {
    const step = toDeliveryStep(NEAR_RATES, LONDON)
    expect(plain(step.collection[0].spokenText)).toBe(
      "Islington store, £0.00, 0.7 kilometres away, 88 Upper Street, London, N1 0NP. Ready to collect from 14:00 today."
    )
    const clapham = step.collection.find((store) => store.key === "so_clapham")
    expect(plain(clapham?.spokenText)).toBe(
      "Clapham store, £0.00, 60 Clapham High Street, London, SW4 7UL. Ready to collect from 14:00 today."
    )
  })

  it("reads a route from before distances and instructions as having neither", () => {
    const older = {
      ...NEAR_RATES,
      rates: NEAR_RATES.rates.map(({ distance_km: _d, instructions: _i, ...rate }) => rate),
    }
    const [store] = toDeliveryStep(older, LONDON).collection
    expect([store.distanceKm, store.distanceText, store.instructions]).toEqual([null, null, null])
  })
})
