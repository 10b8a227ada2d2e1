import { buildFulfillmentOptions } from "../../contracts/fulfillment-options"
import type { StockLocationRow } from "../stock-locations"
import type { ServiceFulfilmentLocation } from "../../contracts/service-shapes"
import { planShippingSetup } from "../shipping-setup"

/** The provider as an app registers it under an id of its own (`lastmile_<id>`). */
const PROVIDER_ID = "lastmile_courier"

const options = buildFulfillmentOptions(["NEXT_DAY"])
const remote: ServiceFulfilmentLocation[] = [
  {
    fulfilmentLocationId: 1,
    externalLocationId: "warehouse",
    name: "Warehouse",
    collectionEnabled: false,
    deliveryEnabled: true,
  },
  { fulfilmentLocationId: 2, externalLocationId: "store-camden", name: "Camden", collectionEnabled: true },
  { fulfilmentLocationId: 3, externalLocationId: "store-nowhere", name: "Nowhere", collectionEnabled: true },
]
const location = (
  id: string,
  name: string,
  external: string,
  extra: Partial<StockLocationRow> = {}
): StockLocationRow => ({
  id,
  name,
  address: { country_code: "gb", metadata: { external_location_id: external } },
  fulfillment_sets: [],
  fulfillment_providers: [],
  ...extra,
})

describe("shipping setup plan", () => {
  it("plans the provider, sets, zones and options of a new store, in the report's order", () => {
    const plan = planShippingSetup({
      remote,
      stock: [location("sloc_w", "Warehouse", "warehouse"), location("sloc_c", "Camden", "store-camden")],
      options,
      shippingProfileId: null,
      currencies: ["gbp", "jpy"],
    })
    expect(plan.report).toEqual({
      created: [
        "shipping profile Default",
        "Warehouse: lastmile provider enabled",
        "Warehouse: shipping fulfillment set",
        "Warehouse: shipping service zone (GB)",
        "Warehouse: Last-mile next day delivery option",
        "Camden: lastmile provider enabled",
        "Camden: pickup fulfillment set",
        "Camden: pickup service zone (GB)",
        "Camden: click & collect option",
        "Warehouse: return option",
      ],
      unchanged: [],
      skipped: ["Nowhere: no matching Medusa stock location"],
    })
    expect(plan.provider_location_ids).toEqual(["sloc_w", "sloc_c"])
    expect(plan.fulfillment_sets).toEqual([
      { location_id: "sloc_w", name: "Warehouse delivery", type: "shipping" },
      { location_id: "sloc_c", name: "Camden pickup", type: "pickup" },
    ])
    expect(plan.service_zones.map((z) => z.set)).toEqual([{ new_set: 0 }, { new_set: 1 }])
    expect(plan.shipping_options.map((o) => [o.name, o.zone, o.data.id, o.prices])).toEqual([
      ["Next day delivery", { new_zone: 0 }, "lastmile-next-day", undefined],
      ["Collect from Camden", { new_zone: 1 }, "lastmile-collection", undefined],
      [
        "Return by courier",
        { new_zone: 0 },
        "lastmile-return",
        [
          { currency_code: "gbp", amount: 0 },
          { currency_code: "jpy", amount: 0 },
        ],
      ],
    ])
    expect(plan.sales_channel_links).toEqual([])
  })

  it("plans nothing for what exists, and a zone for a set without one", () => {
    const withOption = location("sloc_w", "Warehouse", "warehouse", {
      fulfillment_providers: [{ id: PROVIDER_ID }],
      fulfillment_sets: [
        {
          id: "fuset_w",
          type: "shipping",
          service_zones: [
            {
              id: "serzo_w",
              shipping_options: [
                { id: "so_1", provider_id: PROVIDER_ID, data: { id: "lastmile-next-day" } },
                { id: "so_2", provider_id: PROVIDER_ID, data: { id: "lastmile-return" } },
              ],
            },
          ],
        },
      ],
    })
    const bareSet = location("sloc_c", "Camden", "store-camden", {
      fulfillment_providers: [{ id: PROVIDER_ID }],
      fulfillment_sets: [{ id: "fuset_c", type: "pickup", service_zones: [] }],
    })
    const plan = planShippingSetup({ remote, stock: [withOption, bareSet], options, shippingProfileId: "sp_1" })
    expect(plan.report.created).toEqual(["Camden: pickup service zone (GB)", "Camden: click & collect option"])
    expect(plan.report.unchanged).toEqual(["Warehouse: Last-mile next day delivery option", "Warehouse: return option"])
    expect(plan.provider_location_ids).toEqual([])
    expect(plan.fulfillment_sets).toEqual([])
    expect(plan.service_zones).toEqual([{ set: { id: "fuset_c" }, name: "Camden pickup zone", country_code: "gb" }])
    expect(plan.shipping_options.map((o) => o.zone)).toEqual([{ new_zone: 0 }])
  })

  it("gives a store named by two service locations one option", () => {
    const twice = [remote[1], { ...remote[1], fulfilmentLocationId: 4 }]
    const plan = planShippingSetup({
      remote: twice,
      stock: [location("sloc_c", "Camden", "store-camden")],
      options,
      shippingProfileId: "sp_1",
    })
    expect(plan.shipping_options).toHaveLength(1)
    expect(plan.report.unchanged).toEqual(["Camden: click & collect option"])
  })

  it("matches a service location to the first of two stock locations carrying its id, as the overview and the unlink do", () => {
    const plan = planShippingSetup({
      remote: [remote[1]],
      stock: [location("sloc_c1", "Camden", "store-camden"), location("sloc_c2", "Camden again", "store-camden")],
      options,
      shippingProfileId: "sp_1",
    })
    expect(plan.provider_location_ids).toEqual(["sloc_c1"])
    expect(plan.fulfillment_sets).toEqual([{ location_id: "sloc_c1", name: "Camden pickup", type: "pickup" }])
  })

  it("puts the return option on the chosen location, in a shipping zone of its own, priced 0 in every currency", () => {
    const warehouse = (withReturn: boolean) =>
      location("sloc_w", "Warehouse", "warehouse", {
        fulfillment_providers: [{ id: PROVIDER_ID }],
        fulfillment_sets: [
          {
            id: "fuset_w",
            type: "shipping",
            service_zones: [
              {
                id: "serzo_w",
                shipping_options: [
                  { id: "so_1", provider_id: PROVIDER_ID, data: { id: "lastmile-next-day" } },
                  ...(withReturn ? [{ id: "so_2", provider_id: PROVIDER_ID, data: { id: "lastmile-return" } }] : []),
                ],
              },
            ],
          },
        ],
      })
    const camden = location("sloc_c", "Camden", "store-camden")
    const plan = planShippingSetup({
      remote,
      stock: [warehouse(false), camden],
      options,
      shippingProfileId: "sp_1",
      returnLocationId: "sloc_c",
      currencies: ["gbp"],
    })
    expect(plan.report.created).toEqual([
      "Camden: lastmile provider enabled",
      "Camden: pickup fulfillment set",
      "Camden: pickup service zone (GB)",
      "Camden: click & collect option",
      "Camden: shipping fulfillment set",
      "Camden: shipping service zone (GB)",
      "Camden: return option",
    ])
    expect(plan.fulfillment_sets).toEqual([
      { location_id: "sloc_c", name: "Camden pickup", type: "pickup" },
      { location_id: "sloc_c", name: "Camden delivery", type: "shipping" },
    ])
    expect(plan.shipping_options.at(-1)).toMatchObject({
      zone: { new_zone: 1 },
      data: { id: "lastmile-return", kind: "return", is_return: true },
      prices: [{ currency_code: "gbp", amount: 0 }],
    })

    // No choice: the warehouse's return option will do.
    const again = planShippingSetup({ remote, stock: [warehouse(true), camden], options, shippingProfileId: "sp_1" })
    expect(again.report.unchanged).toContain("Warehouse: return option")
    expect(again.shipping_options.map((o) => o.data.id)).toEqual(["lastmile-collection"])

    // Another location chosen while returns go to the warehouse: never a second return option for the shopper.
    const moved = planShippingSetup({
      remote,
      stock: [warehouse(true), camden],
      options,
      shippingProfileId: "sp_1",
      returnLocationId: "sloc_c",
      currencies: ["gbp"],
    })
    expect(moved.shipping_options.map((o) => o.data.id)).toEqual(["lastmile-collection"])
    expect(moved.report.skipped).toContain(
      "Camden: return option: returns already go to Warehouse; delete that return option in Locations & Shipping to send them here"
    )
  })

  it("says why there is no return option: no dispatch location, or no currency", () => {
    const camden = location("sloc_c", "Camden", "store-camden")
    const storesOnly = planShippingSetup({
      remote,
      stock: [camden],
      options,
      shippingProfileId: "sp_1",
      currencies: ["gbp"],
    })
    expect(storesOnly.report.skipped).toContain(
      "return option: no dispatch location; choose the location returns go to"
    )
    const noRegion = planShippingSetup({
      remote,
      stock: [location("sloc_w", "Warehouse", "warehouse")],
      options,
      shippingProfileId: "sp_1",
    })
    expect(noRegion.report.skipped).toContain(
      "Warehouse: return option: the store has no region, so no currency to price it in"
    )
    expect(noRegion.shipping_options.map((o) => o.data.id)).toEqual(["lastmile-next-day"])
  })

  it("adds each linked location to each ticked sales channel it is not in yet", () => {
    const webshop = { id: "sc_web", name: "Webshop" }
    const pos = { id: "sc_pos", name: "Shop floor" }
    const plan = planShippingSetup({
      remote,
      stock: [
        location("sloc_w", "Warehouse", "warehouse", { sales_channels: [webshop] }),
        location("sloc_c", "Camden", "store-camden"),
        location("sloc_x", "Unmapped", "elsewhere"),
      ],
      options,
      shippingProfileId: "sp_1",
      currencies: ["gbp"],
      salesChannels: [webshop, pos],
    })
    expect(plan.sales_channel_links).toEqual([
      { location_id: "sloc_w", sales_channel_id: "sc_pos" },
      { location_id: "sloc_c", sales_channel_id: "sc_web" },
      { location_id: "sloc_c", sales_channel_id: "sc_pos" },
    ])
    expect(plan.report.unchanged).toEqual(["Warehouse: in sales channel Webshop"])
    expect(plan.report.created).toEqual(
      expect.arrayContaining([
        "Warehouse: in sales channel Shop floor",
        "Camden: in sales channel Webshop",
        "Camden: in sales channel Shop floor",
      ])
    )
  })
})
