import type { StockLocationRow } from "../stock-locations"
import { countryCodeOf, createRefusal, stockAddressFromService } from "../stock-locations"
import { toStoreDescription } from "../store-identity"
import type { ServiceFulfilmentLocation } from "../../contracts/service-shapes"
import { type LocationMappingPlan, type MappingRefusal, planLocationMapping } from "../location-mapping"

const soho: ServiceFulfilmentLocation = {
  fulfilmentLocationId: "fl_0100",
  externalLocationId: "store-soho",
  name: "Soho store",
  collectionEnabled: true,
  address: { line1: "5 Carnaby Street", city: "London", postcode: "W1F 9PB", country: "United Kingdom" },
}
const camden: ServiceFulfilmentLocation = {
  fulfilmentLocationId: 2,
  externalLocationId: "store-camden",
  name: "Camden",
  collectionEnabled: true,
}
const remote = [soho, camden]

const stockLocation = (id: string, name: string, extra: Partial<StockLocationRow> = {}): StockLocationRow => ({
  id,
  name,
  address: { id: `laddr_${id}`, address_1: "1 High Street", country_code: "gb", metadata: { note: "kept" } },
  ...extra,
})
const linkedCamden = stockLocation("sloc_c", "Camden store", {
  address: {
    id: "laddr_c",
    address_1: "2 Camden High St",
    country_code: "gb",
    metadata: { external_location_id: "store-camden" },
  },
})

const planned = (outcome: LocationMappingPlan | MappingRefusal): LocationMappingPlan => {
  if ("refused" in outcome) {
    throw new Error(`refused: ${outcome.message}`)
  }
  return outcome
}

describe("a service location's address as a stock location's", () => {
  it("reads the documented fields and their usual spellings, the country by name or code", () => {
    expect(stockAddressFromService(soho.address)).toEqual({
      address: {
        address_1: "5 Carnaby Street",
        address_2: null,
        city: "London",
        postal_code: "W1F 9PB",
        province: null,
        country_code: "gb",
      },
    })
    expect(stockAddressFromService({ address1: "1 Rue de Rivoli", postalCode: "75001", countryCode: "FR" })).toEqual({
      address: expect.objectContaining({ address_1: "1 Rue de Rivoli", postal_code: "75001", country_code: "fr" }),
    })
    // The store list the provider attributes collection rates with reads the same fields.
    expect(
      toStoreDescription({
        fulfilmentLocationId: 9,
        collectionEnabled: true,
        externalLocationId: "store-soho",
        address: { addressLine1: " 5 Carnaby Street ", zipCode: "W1F 9PB", country: "United Kingdom" },
      })
    ).toEqual({ externalLocationId: "store-soho", addressLine1: "5 Carnaby Street", postcode: "W1F 9PB" })
    expect(
      stockAddressFromService({ addressLine1: " 5 Carnaby Street ", zipCode: "W1F 9PB", country: "United Kingdom" })
    ).toEqual({
      address: expect.objectContaining({ address_1: "5 Carnaby Street", postal_code: "W1F 9PB", country_code: "gb" }),
    })
    expect(countryCodeOf("united kingdom")).toBe("gb")
    expect(countryCodeOf("UK")).toBe("gb")
    expect(countryCodeOf("Germany")).toBe("de")
    expect(countryCodeOf("Atlantis")).toBeUndefined()
    expect(countryCodeOf("ZZ")).toBeUndefined()
  })

  it("says what is missing rather than guessing", () => {
    expect(stockAddressFromService(null)).toEqual({ missing: ["a street line", "a country"] })
    expect(stockAddressFromService("5 Carnaby Street, London")).toEqual({ missing: ["a street line", "a country"] })
    expect(stockAddressFromService({ line1: "5 Carnaby Street", country: "Atlantis" })).toEqual({
      missing: ['a country Medusa knows (got "Atlantis")'],
    })
    expect(createRefusal({ ...soho, address: { city: "London" } })).toBe(
      "The service gives Soho store no usable address (it lacks a street line and a country): create the stock location in Settings → Locations and link it instead."
    )
    expect(createRefusal({ ...soho, externalLocationId: undefined })).toContain("no externalLocationId")
  })
})

describe("location mapping plan", () => {
  it("links by setting the external id on the address (Medusa merges metadata, so the rest is kept)", () => {
    const plan = planned(
      planLocationMapping({
        action: "link",
        fulfilment_location_id: "fl_0100",
        stock_location_id: "sloc_s",
        remote,
        stock: [stockLocation("sloc_s", "Soho"), linkedCamden],
      })
    )
    expect(plan.update).toEqual({
      stock_location_id: "sloc_s",
      address: {
        id: "laddr_sloc_s",
        address_1: "1 High Street",
        country_code: "gb",
        metadata: { external_location_id: "store-soho" },
      },
      previous_external_id: null,
    })
    expect(plan.result).toMatchObject({
      changed: true,
      stock_location: { id: "sloc_s" },
      message: "Linked Soho store to Soho.",
    })
  })

  it("gives a stock location without an address the service's, and refuses when the service has none usable", () => {
    const bare = stockLocation("sloc_s", "Soho", { address: null })
    const plan = planned(
      planLocationMapping({
        action: "link",
        fulfilment_location_id: "fl_0100",
        stock_location_id: "sloc_s",
        remote,
        stock: [bare],
      })
    )
    expect(plan.attach).toMatchObject({
      stock_location_id: "sloc_s",
      address: { address_1: "5 Carnaby Street", country_code: "gb", metadata: { external_location_id: "store-soho" } },
    })
    expect(plan.update).toBeNull()
    expect(
      planLocationMapping({
        action: "link",
        fulfilment_location_id: "2",
        stock_location_id: "sloc_s",
        remote,
        stock: [bare],
      })
    ).toEqual({
      refused: "not_allowed",
      message:
        "Soho has no address to hold the link, and the service gives Camden no usable address (it lacks a street line and a country): add an address to Soho in Settings → Locations first.",
    })
  })

  it("refuses a stock location linked to another service location, and a service location linked elsewhere", () => {
    expect(
      planLocationMapping({
        action: "link",
        fulfilment_location_id: "fl_0100",
        stock_location_id: "sloc_c",
        remote,
        stock: [linkedCamden],
      })
    ).toEqual({ refused: "not_allowed", message: "Camden store is already linked to Camden: unlink it there first." })
    expect(
      planLocationMapping({
        action: "link",
        fulfilment_location_id: "2",
        stock_location_id: "sloc_s",
        remote,
        stock: [linkedCamden, stockLocation("sloc_s", "Soho")],
      })
    ).toEqual({ refused: "not_allowed", message: "Camden is already linked to Camden store: unlink it first." })
    const again = planned(
      planLocationMapping({
        action: "link",
        fulfilment_location_id: "2",
        stock_location_id: "sloc_c",
        remote,
        stock: [linkedCamden],
      })
    )
    expect(again).toMatchObject({ update: null, attach: null, result: { changed: false } })
  })

  it("overwrites an external id that no service location has, and says so", () => {
    const stale = stockLocation("sloc_s", "Soho", {
      address: {
        id: "laddr_s",
        address_1: "1 High Street",
        country_code: "gb",
        metadata: { external_location_id: "gone" },
      },
    })
    const plan = planned(
      planLocationMapping({
        action: "link",
        fulfilment_location_id: "fl_0100",
        stock_location_id: "sloc_s",
        remote,
        stock: [stale],
      })
    )
    expect(plan.update).toMatchObject({
      address: { metadata: { external_location_id: "store-soho" } },
      previous_external_id: "gone",
    })
    expect(plan.result.message).toContain('replaces the external id "gone"')
  })

  it("answers not found for unknown ids", () => {
    expect(
      planLocationMapping({
        action: "link",
        fulfilment_location_id: "fl_9",
        stock_location_id: "sloc_c",
        remote,
        stock: [linkedCamden],
      })
    ).toMatchObject({ refused: "not_found" })
    expect(
      planLocationMapping({
        action: "link",
        fulfilment_location_id: "2",
        stock_location_id: "sloc_9",
        remote,
        stock: [linkedCamden],
      })
    ).toMatchObject({ refused: "not_found", message: "Stock location with id: sloc_9 was not found" })
    expect(planLocationMapping({ action: "unlink", fulfilment_location_id: "fl_9", remote, stock: [] })).toMatchObject({
      refused: "not_found",
    })
  })

  it("unlinks by removing the external id only (Medusa's \"\" removes a key); refuses a link made by the stock location's own id", () => {
    const plan = planned(
      planLocationMapping({ action: "unlink", fulfilment_location_id: "2", remote, stock: [linkedCamden] })
    )
    expect(plan.update).toEqual({
      stock_location_id: "sloc_c",
      address: {
        id: "laddr_c",
        address_1: "2 Camden High St",
        country_code: "gb",
        metadata: { external_location_id: "" },
      },
      previous_external_id: "store-camden",
    })
    expect(plan.result).toMatchObject({ changed: true, stock_location: null })
    const byOwnId = stockLocation("store-camden", "Camden store")
    expect(
      planLocationMapping({ action: "unlink", fulfilment_location_id: "2", remote, stock: [byOwnId] })
    ).toMatchObject({
      refused: "not_allowed",
    })
    expect(
      planned(
        planLocationMapping({ action: "unlink", fulfilment_location_id: "fl_0100", remote, stock: [linkedCamden] })
      ).result
    ).toMatchObject({ changed: false, message: "Soho store is not linked to a stock location." })
  })

  it("creates a stock location from the service's name and address, with its external id", () => {
    const plan = planned(
      planLocationMapping({ action: "create", fulfilment_location_id: "fl_0100", remote, stock: [] })
    )
    expect(plan.create).toEqual({
      name: "Soho store",
      address: {
        address_1: "5 Carnaby Street",
        address_2: null,
        city: "London",
        postal_code: "W1F 9PB",
        province: null,
        country_code: "gb",
        metadata: { external_location_id: "store-soho" },
      },
    })
    expect(planLocationMapping({ action: "create", fulfilment_location_id: "2", remote, stock: [] })).toMatchObject({
      refused: "not_allowed",
      message: expect.stringContaining("no usable address"),
    })
    expect(
      planLocationMapping({
        action: "create",
        fulfilment_location_id: "fl_0100",
        remote,
        stock: [stockLocation("store-soho", "Soho")],
      })
    ).toEqual({ refused: "not_allowed", message: "Soho store is already linked to Soho: unlink it first." })
  })
})
