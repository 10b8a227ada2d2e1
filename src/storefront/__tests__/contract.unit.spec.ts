/**
 * The client-facing contract is the storefront package's (its
 * `contract.ts`); what the plugin writes and answers must fit it. The
 * route's JSON and the rate details are typed by the package's types
 * directly; the public data the plugin stores is parsed by its own zod
 * schemas, whose output is checked against the package's shapes here (by
 * `npm run typecheck`), and read back by the helpers below.
 */
import type {
  LastmileFulfillmentData as FulfillmentDataWritten,
  LastmileShippingMethodData as MethodDataWritten,
} from "../../lib/contracts/plugin-data"
import { toFulfillmentData } from "../../lib/contracts/plugin-data"
import * as storefrontPackage from "medusa-plugin-lastmile-storefront"
import {
  type LastmileFulfillmentData,
  type LastmileShippingMethodData,
  readChosenMethod,
  readOrderTracking,
} from "medusa-plugin-lastmile-storefront"
import * as pluginEntry from "../index"
import { CAMDEN_STORE, currentCollectionData } from "./fixtures"

type Fits<A, B> = [A] extends [B] ? true : false
const methodDataFits: Fits<MethodDataWritten, LastmileShippingMethodData> = true
const fulfillmentDataFits: Fits<FulfillmentDataWritten, LastmileFulfillmentData> = true

describe("the public data the plugin stores", () => {
  it("fits the storefront package's shapes (checked by the type checker)", () => {
    expect([methodDataFits, fulfillmentDataFits]).toEqual([true, true])
  })

  it("is read back by the helpers as the plugin wrote it", () => {
    const method = currentCollectionData()
    const booking = toFulfillmentData(
      {
        taskId: 7,
        trackingId: "LM-7",
        trackingUrl: "https://track.example.com/LM-7",
        status: { value: "NOT_STARTED" },
      },
      { kind: "collection", store: CAMDEN_STORE }
    )
    const order = {
      id: "order_1",
      shipping_methods: [{ name: "Collect from Camden", data: method }],
      fulfillments: [{ id: "ful_1", provider_id: "lastmile_lastmile", data: booking }],
    }
    expect(readChosenMethod(order)).toMatchObject({ kind: "collection", name: "Camden" })
    expect(readOrderTracking(order)).toMatchObject({
      status: "booked",
      trackingNumber: "LM-7",
      trackingUrl: "https://track.example.com/LM-7",
      collection: { name: "Camden" },
    })
  })
})

describe("medusa-plugin-lastmile/storefront", () => {
  it("is the storefront package, whole: earlier imports keep working", () => {
    expect(Object.keys(pluginEntry).sort()).toEqual(Object.keys(storefrontPackage).sort())
    expect(pluginEntry.createLastmileStorefront).toBe(storefrontPackage.createLastmileStorefront)
    expect(Object.keys(pluginEntry)).toEqual(expect.arrayContaining(["toDeliveryStep", "describeOrderTracking"]))
  })
})
