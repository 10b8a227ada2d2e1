import type { OperatingHours } from "./collection-readiness"
import type { SimLocation, SimulatorConfig, SimulatorConfigPatch, SimulatorProfile } from "./types"

export const DEFAULT_SIMULATOR_API_KEY = "sim_test_key"

export function defaultConfig(overrides: SimulatorConfigPatch = {}): SimulatorConfig {
  const base: SimulatorConfig = {
    apiKey: DEFAULT_SIMULATOR_API_KEY,
    currency: "GBP",
    timezone: "Europe/London",
    deliveryServices: [
      {
        deliveryType: "NEXT_DAY",
        rateCode: "NEXT_DAY",
        name: "Next day delivery",
        price: 495,
        co2Savings: 0.42,
        daysAhead: 1,
        windowFrom: "08:00",
        windowTo: "20:00",
      },
    ],
    collection: {
      price: 0,
      priceForm: "object",
      locationField: true,
      unavailable: "omit",
      defaultCutoffMinutes: 45,
      readyInMinutes: 120,
    },
    unservedPostcodePrefixes: ["ZE", "HS", "BT"],
    noDeliveryPostcodePrefixes: ["KW", "IV"],
    quoteTtlMs: 120_000,
    duplicateBooking: "existing",
    lookupShape: "list",
    locationsShape: "array",
    locationsPageSize: 4,
    locationFields: "named",
    hoursShape: "days",
    junkLocation: false,
    locationsListPath: "/fulfilment-locations",
    rateDeliveryTypeField: true,
    rateCodes: "stable",
    nullOptionalFields: false,
    bookingAnswer: "full",
    statusFlow: ["NOT_STARTED", "ASSIGNED", "PICKED_UP", "IN_TRANSIT", "OUT_FOR_DELIVERY", "DELIVERED"],
    collectionStatusFlow: ["NOT_STARTED", "READY_FOR_COLLECTION", "COLLECTED_BY_CUSTOMER"],
    returnStatusFlow: ["NOT_STARTED", "ASSIGNED", "PICKED_UP", "IN_TRANSIT", "DELIVERED"],
    failedAttemptStatus: "FAILED_ATTEMPT",
    returnLookup: "listed",
    returnTaskType: "RETURN",
    returnDeduplication: true,
    cancelledStatus: "CANCELLED",
    orderNote: "accept",
    webhook: { payload: "full", retryBaseMs: 200, retryMaxMs: 10_000, maxAttempts: 30 },
  }
  return mergeConfig(base, overrides)
}

/** `patch` on top of `config`, group by group (a patch's nested groups may be partial). */
export function mergeConfig<T extends SimulatorConfigPatch>(config: T, patch: SimulatorConfigPatch): T {
  return {
    ...config,
    ...patch,
    collection: { ...config.collection, ...patch.collection },
    webhook: { ...config.webhook, ...patch.webhook },
  }
}

/**
 * The least convenient shapes the spec allows: several delivery rates per
 * type with codes minted per quote and no `deliveryType`, an errored rate
 * without a price, null optional fields, bare-number collection prices on
 * rates that do not name their store, a paged location list with an
 * unreadable item and no non-spec fields, a single-task lookup, 409 on a
 * repeated booking, a booking answer without a tracking URL, and returns
 * that the lookup does not find, that show no `taskType`, and that are not
 * de-duplicated (a repeat creates a second return). Its tasks move through
 * terse values: a delivery never says OUT_FOR_DELIVERY or DELIVERED (EN_ROUTE,
 * COMPLETED), a collection is READY_FOR_PICKUP and then COMPLETED like a
 * delivery (only the task's mode tells collected from delivered), and a
 * failed attempt is ATTEMPTED. A booking's `order.note`, a field the spec
 * does not show, is refused (400) unless `orderNote` says the service takes it.
 */
export function strictProfile(): SimulatorConfigPatch {
  return {
    orderNote: "refuse",
    rateDeliveryTypeField: false,
    rateCodes: "per_quote",
    nullOptionalFields: true,
    bookingAnswer: "no_tracking_url",
    locationsShape: "paged",
    locationFields: "spec",
    junkLocation: true,
    lookupShape: "single",
    duplicateBooking: "conflict",
    returnLookup: "hidden",
    returnTaskType: null,
    returnDeduplication: false,
    statusFlow: ["NOT_STARTED", "ACCEPTED", "STARTED", "EN_ROUTE", "COMPLETED"],
    collectionStatusFlow: ["NOT_STARTED", "READY_FOR_PICKUP", "COMPLETED"],
    returnStatusFlow: ["NOT_STARTED", "ACCEPTED", "STARTED", "COMPLETED"],
    failedAttemptStatus: "ATTEMPTED",
    collection: { priceForm: "number", locationField: false, unavailable: "error" },
    deliveryServices: [
      {
        deliveryType: "NEXT_DAY",
        rateCode: "ND-STD",
        name: "Next day",
        price: 495,
        co2Savings: 0.42,
        daysAhead: 1,
        windowFrom: "08:00",
        windowTo: "20:00",
      },
      {
        deliveryType: "NEXT_DAY",
        rateCode: "ND-ECO",
        name: "Next day eco",
        price: 395,
        co2Savings: 1.1,
        daysAhead: 1,
        windowFrom: "12:00",
        windowTo: "22:00",
      },
      {
        deliveryType: "NEXT_DAY",
        rateCode: "ND-AM",
        name: "Next day morning",
        price: 695,
        daysAhead: 1,
        windowFrom: "07:00",
        windowTo: "12:00",
        unavailable: { code: "VEHICLE_FULL", details: { slots: 0 } },
      },
      {
        deliveryType: "SAME_DAY",
        rateCode: "SD-EVE",
        name: "Same day evening",
        price: 895,
        co2Savings: 0.2,
        daysAhead: 0,
        windowFrom: "18:00",
        windowTo: "22:00",
      },
    ],
  }
}

export const SIMULATOR_PROFILES: readonly SimulatorProfile[] = ["default", "strict"]

/** The config patch of a profile; "default" changes nothing. */
export function profileConfig(profile: SimulatorProfile): SimulatorConfigPatch {
  switch (profile) {
    case "strict":
      return strictProfile()
    case "default":
      return {}
    default:
      throw new TypeError(
        `unknown simulator profile "${String(profile)}" (expected ${SIMULATOR_PROFILES.join(" or ")})`
      )
  }
}

/** Mon–Sat 09:00–18:00, Sun 11:00–17:00, in London. */
export function londonHours(overrides: Partial<OperatingHours["days"]> = {}): OperatingHours {
  const weekday = { open: "09:00", close: "18:00" }
  return {
    timezone: "Europe/London",
    days: {
      mon: weekday,
      tue: weekday,
      wed: weekday,
      thu: weekday,
      fri: weekday,
      sat: weekday,
      sun: { open: "11:00", close: "17:00" },
      ...overrides,
    },
  }
}

/** Open around the clock: collection never hits a cutoff (handy for tests). */
export function alwaysOpenHours(timezone = "Europe/London"): OperatingHours {
  const span = { open: "00:00", close: "23:59" }
  return { timezone, days: { mon: span, tue: span, wed: span, thu: span, fri: span, sat: span, sun: span } }
}

const LONDON_STORES: [string, string, string, string][] = [
  ["Covent Garden", "12 Long Acre", "London", "WC2E 9LH"],
  ["Shoreditch", "45 Great Eastern Street", "London", "EC2A 3HP"],
  ["Camden", "201 Camden High Street", "London", "NW1 7BT"],
  ["Brixton", "4 Electric Avenue", "London", "SW9 8JX"],
  ["Islington", "88 Upper Street", "London", "N1 0NP"],
  ["Greenwich", "15 Nelson Road", "London", "SE10 9JB"],
  ["Hammersmith", "30 King Street", "London", "W6 0QA"],
  ["Stratford", "2 The Broadway", "London", "E15 4BQ"],
  ["Richmond", "19 George Street", "Richmond", "TW9 1HY"],
  ["Clapham", "60 Clapham High Street", "London", "SW4 7UL"],
]

/**
 * A London-like merchant: one dispatch warehouse and ten stores, with stock
 * for the given products (`stockFor(storeIndex, sku)`).
 */
export function londonLocations(
  skus: string[],
  stockFor: (store: number, sku: string) => number = () => 10
): SimLocation[] {
  const warehouse: SimLocation = {
    fulfilmentLocationId: "fl_0001",
    externalLocationId: "warehouse",
    name: "Park Royal warehouse",
    address: { line1: "Unit 7, Abbey Road", city: "London", postcode: "NW10 7SJ", country: "United Kingdom" },
    operatingHours: londonHours(),
    collectionEnabled: false,
    deliveryEnabled: true,
    stock: Object.fromEntries(skus.map((sku) => [sku, 1000])),
  }
  const stores = LONDON_STORES.map(([name, line1, city, postcode], i): SimLocation => ({
    fulfilmentLocationId: `fl_${String(i + 2).padStart(4, "0")}`,
    externalLocationId: `store-${name.toLowerCase().replace(/\s+/g, "-")}`,
    name: `${name} store`,
    address: { line1, city, postcode, country: "United Kingdom" },
    operatingHours: londonHours(),
    collectionEnabled: true,
    stock: Object.fromEntries(skus.map((sku) => [sku, stockFor(i, sku)])),
  }))
  return [warehouse, ...stores]
}
