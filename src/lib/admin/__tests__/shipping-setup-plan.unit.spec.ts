import { buildFulfillmentOptions, LASTMILE_PROVIDER_ID } from "../../lastmile/fulfillment-options"
import type { StockLocationRow } from "../../admin/lastmile-overview"
import type { ServiceFulfilmentLocation } from "../../service-client"
import { planShippingSetup } from "../../../workflows/setup-shipping-options/steps/plan-shipping-setup"

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
    expect(plan.shipping_options.map((o) => [o.name, o.zone, o.data.id])).toEqual([
      ["Next day delivery", { new_zone: 0 }, "lastmile-next-day"],
      ["Collect from Camden", { new_zone: 1 }, "lastmile-collection"],
    ])
  })

  it("plans nothing for what exists, and a zone for a set without one", () => {
    const withOption = location("sloc_w", "Warehouse", "warehouse", {
      fulfillment_providers: [{ id: LASTMILE_PROVIDER_ID }],
      fulfillment_sets: [
        {
          id: "fuset_w",
          type: "shipping",
          service_zones: [
            {
              id: "serzo_w",
              shipping_options: [{ id: "so_1", provider_id: LASTMILE_PROVIDER_ID, data: { id: "lastmile-next-day" } }],
            },
          ],
        },
      ],
    })
    const bareSet = location("sloc_c", "Camden", "store-camden", {
      fulfillment_providers: [{ id: LASTMILE_PROVIDER_ID }],
      fulfillment_sets: [{ id: "fuset_c", type: "pickup", service_zones: [] }],
    })
    const plan = planShippingSetup({ remote, stock: [withOption, bareSet], options, shippingProfileId: "sp_1" })
    expect(plan.report.created).toEqual(["Camden: pickup service zone (GB)", "Camden: click & collect option"])
    expect(plan.report.unchanged).toEqual(["Warehouse: Last-mile next day delivery option"])
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
})
