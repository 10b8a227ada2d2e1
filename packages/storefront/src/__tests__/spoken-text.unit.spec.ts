import { formatSpokenWindow, toDeliveryStep } from "../index.js"
import { ECO_WINDOW, LIVE_RATES, NOW, OUTAGE_RATES, currentMethodData } from "./plugin-answers.js"

const LONDON = { locale: "en-GB", timeZone: "Europe/London", now: NOW }

/** Intl separates with narrow and no-break spaces; compare the words. */
const plain = (text: string | null | undefined) => text?.replace(/\s/g, " ") ?? null

describe("what a screen reader hears of a delivery step", () => {
  it("reads a rate's price, window and CO₂ saving as one sentence, then its text", () => {
    const step = toDeliveryStep(LIVE_RATES, LONDON)
    expect(plain(step.delivery[0].spokenText)).toBe(
      "Next day eco, £3.95, delivered tomorrow between 12:00 and 22:00, saving 1.1 kg CO₂. By cargo bike."
    )
  })

  it("reads a store by its price and readiness, its address said once", () => {
    const step = toDeliveryStep(LIVE_RATES, LONDON)
    const camden = step.collection.find((c) => c.name.startsWith("Camden"))
    // The readiness text names the street already: the address is not read twice.
    expect(plain(camden?.spokenText)).toBe(
      "Camden, £0.00. Camden, 12 Camden High St, NW1 0JH. Ready to collect from 14:00 today."
    )
  })

  it("says a price is an estimate where it is one", () => {
    const step = toDeliveryStep(OUTAGE_RATES, LONDON)
    expect(plain(step.delivery[0].spokenText)).toMatch(/^Next day delivery, £6\.00 \(estimated price\)/)
  })

  it("says a window as words, a later day by its date, across days from one moment to the other", () => {
    expect(plain(formatSpokenWindow(ECO_WINDOW, { ...LONDON, now: new Date("2026-07-25T08:00:00Z") }))).toBe(
      "today between 12:00 and 22:00"
    )
    expect(plain(formatSpokenWindow(ECO_WINDOW, { ...LONDON, now: new Date("2026-07-22T08:00:00Z") }))).toBe(
      "Saturday 25 July between 12:00 and 22:00"
    )
    const overnight = { from: "2026-07-25T17:00:00.000Z", to: "2026-07-26T08:00:00.000Z" }
    expect(plain(formatSpokenWindow(overnight, LONDON))).toBe("between Sat 25 Jul, 18:00 and Sun 26 Jul, 09:00")
    expect(formatSpokenWindow({ from: "soon", to: "later" }, LONDON)).toBeNull()
  })

  it("announces what can be chosen, from which price, and what the cart holds", () => {
    const cart = { id: "cart_1", shipping_methods: [{ shipping_option_id: "so_next_day", data: currentMethodData() }] }
    const step = toDeliveryStep(LIVE_RATES, { ...LONDON, cart })
    expect(plain(step.announcement)).toMatch(
      /^Some options are not available for this order\. 2 delivery rates and \d stores? to choose from\. Delivery from £3\.95\. Chosen: Next day eco, £3\.95/
    )
  })

  it("announces a choice the cart holds that the route no longer lists at all", () => {
    const gone = {
      id: "cart_1",
      shipping_methods: [
        {
          shipping_option_id: "so_next_day",
          data: currentMethodData({ rateCode: "ND-NIGHT", rateName: "Next day night" }),
        },
      ],
    }
    const step = toDeliveryStep(LIVE_RATES, { ...LONDON, cart: gone })
    expect(step.selectedKey).toBeNull()
    expect(step.chosenUnavailable).toMatchObject({ name: "Next day night", code: "not_listed" })
    expect(step.announcement).toContain(
      "Next day night, your choice, cannot be offered any more. Please choose another option."
    )
  })
})
