/**
 * The setup workflow against fakes: everything planned is created in
 * dependency order, and when Medusa refuses the options at the end, what the
 * run created before is deleted again.
 */
import { asValue } from "@medusajs/framework/awilix"
import { ContainerRegistrationKeys, MedusaError, Modules, createMedusaContainer } from "@medusajs/framework/utils"
import { setupShippingOptionsWorkflow } from "../../../workflows/setup-shipping-options"

const listFulfilmentLocations = jest.fn()
jest.mock("../../connection/lastmile-connection", () => ({
  lastmileClient: () => ({ client: { listFulfilmentLocations }, options: { deliveryTypes: ["NEXT_DAY"] } }),
}))

function fakeContainer({ refuseOptions }: { refuseOptions: boolean }) {
  const calls: [string, unknown][] = []
  const record =
    (name: string, answer: (input: never) => unknown = () => undefined) =>
    async (input: never) => {
      calls.push([name, input])
      return answer(input)
    }
  const container = createMedusaContainer()
  const locks = new Set<string>()
  container.register({
    // The setup runs under one lock: a second run at once waits.
    [Modules.LOCKING]: asValue({
      acquire: async (keys: string | string[]) => {
        for (const key of [keys].flat()) {
          if (locks.has(key)) {
            throw new Error(`held: ${key}`)
          }
          locks.add(key)
        }
      },
      release: async (keys: string | string[]) => {
        ;[keys].flat().forEach((key) => locks.delete(key))
        return true
      },
    }),
    [ContainerRegistrationKeys.LOGGER]: asValue({ warn: jest.fn(), error: jest.fn(), info: jest.fn() }),
    [ContainerRegistrationKeys.QUERY]: asValue({
      graph: async () => ({
        data: [
          {
            id: "sloc_w",
            name: "Warehouse",
            address: { country_code: "gb", metadata: { external_location_id: "warehouse" } },
            fulfillment_sets: [],
            fulfillment_providers: [],
          },
        ],
      }),
    }),
    [ContainerRegistrationKeys.LINK]: asValue({
      create: record("link.create"),
      dismiss: record("link.dismiss"),
    }),
    [ContainerRegistrationKeys.REMOTE_QUERY]: asValue(async () => {
      if (refuseOptions) {
        throw new MedusaError(MedusaError.Types.NOT_ALLOWED, "Providers are not enabled for the service location")
      }
      return [
        { id: "serzo_1", fulfillment_set: { locations: [{ fulfillment_providers: [{ id: "lastmile_lastmile" }] }] } },
      ]
    }),
    [Modules.EVENT_BUS]: asValue({
      emit: async () => undefined,
      releaseGroupedEvents: async () => undefined,
      clearGroupedEvents: async () => undefined,
    }),
    [Modules.PRICING]: asValue({
      createPriceSets: async (sets: unknown[]) => sets.map((_, i) => ({ id: `pset_${i}` })),
      deletePriceSets: async () => undefined,
    }),
    [Modules.FULFILLMENT]: asValue({
      listShippingProfiles: async () => [],
      createShippingProfiles: record("createShippingProfiles", () => [{ id: "sp_1" }]),
      deleteShippingProfiles: record("deleteShippingProfiles"),
      createFulfillmentSets: record("createFulfillmentSets", () => [{ id: "fuset_1" }]),
      deleteFulfillmentSets: record("deleteFulfillmentSets"),
      createServiceZones: record("createServiceZones", () => [{ id: "serzo_1" }]),
      deleteServiceZones: record("deleteServiceZones"),
      listShippingOptions: async () => [],
      validateShippingOptionsForPriceCalculation: async (options: unknown[]) => options.map(() => true),
      upsertShippingOptions: record("upsertShippingOptions", () => [{ id: "so_1" }]),
    }),
  })
  return { container, calls }
}

describe("setupShippingOptionsWorkflow", () => {
  beforeEach(() => {
    listFulfilmentLocations.mockResolvedValue([
      { fulfilmentLocationId: 1, externalLocationId: "warehouse", collectionEnabled: false, deliveryEnabled: true },
    ])
  })

  it("deletes what it created when Medusa refuses the options", async () => {
    const { container, calls } = fakeContainer({ refuseOptions: true })
    const { errors } = await setupShippingOptionsWorkflow(container).run({ input: {}, throwOnError: false })

    expect(errors[0].error).toMatchObject({ type: MedusaError.Types.NOT_ALLOWED })
    const names = calls.map(([name]) => name)
    expect(names.slice(0, 4)).toEqual([
      "createShippingProfiles",
      "createFulfillmentSets",
      "link.create",
      "createServiceZones",
    ])
    expect(names).not.toContain("upsertShippingOptions")
    const undo = Object.fromEntries(calls.slice(4))
    expect(undo).toEqual({
      deleteServiceZones: ["serzo_1"],
      "link.dismiss": [
        {
          [Modules.STOCK_LOCATION]: { stock_location_id: "sloc_w" },
          [Modules.FULFILLMENT]: { fulfillment_provider_id: "lastmile_lastmile" },
        },
        {
          [Modules.STOCK_LOCATION]: { stock_location_id: "sloc_w" },
          [Modules.FULFILLMENT]: { fulfillment_set_id: "fuset_1" },
        },
      ],
      deleteFulfillmentSets: ["fuset_1"],
      deleteShippingProfiles: ["sp_1"],
    })
  })

  it("creates the plan and reports it", async () => {
    const { container, calls } = fakeContainer({ refuseOptions: false })
    const { result } = await setupShippingOptionsWorkflow(container).run({ input: {} })

    expect(result.created).toEqual([
      "shipping profile Default",
      "Warehouse: lastmile provider enabled",
      "Warehouse: shipping fulfillment set",
      "Warehouse: shipping service zone (GB)",
      "Warehouse: Last-mile next day delivery option",
    ])
    const created = Object.fromEntries(calls)
    expect(created.createServiceZones).toEqual([
      {
        fulfillment_set_id: "fuset_1",
        name: "Warehouse shipping zone",
        geo_zones: [{ type: "country", country_code: "gb" }],
      },
    ])
    expect(created.upsertShippingOptions).toEqual([
      expect.objectContaining({
        name: "Next day delivery",
        price_type: "calculated",
        provider_id: "lastmile_lastmile",
        service_zone_id: "serzo_1",
        shipping_profile_id: "sp_1",
      }),
    ])
  })
})
