import { type LastmileGeolocationLike, createLastmileStorefront, nearParam, requestShopperPosition } from "../index.js"
import { NEAR_RATES } from "./plugin-answers.js"
import { fakeSdk } from "./sdk.js"

/** The browser's Geolocation API as a shopper answers its prompt: with where they are, or with a refusal. */
function geolocation(answer: { latitude: number; longitude: number } | { code: number } | "throws") {
  const asked: unknown[] = []
  const api: LastmileGeolocationLike = {
    getCurrentPosition(success, failure, options) {
      asked.push(options)
      if (answer === "throws") {
        throw new Error("Only secure origins are allowed")
      }
      if ("code" in answer) {
        failure?.({ code: answer.code, message: "User denied Geolocation" })
      } else {
        success({ coords: answer })
      }
    },
  }
  return { api, asked }
}

describe("the shopper's position", () => {
  it("is asked of the browser when called, coarse, and kept to about 100 m", async () => {
    const { api, asked } = geolocation({ latitude: 51.532178, longitude: -0.105843 })
    await expect(requestShopperPosition({ geolocation: api })).resolves.toEqual({ latitude: 51.532, longitude: -0.106 })
    expect(asked).toEqual([{ enableHighAccuracy: false, timeout: 10_000, maximumAge: 600_000 }])
    await requestShopperPosition({ geolocation: api, timeoutMs: 3000, maximumAgeMs: 0 })
    expect(asked[1]).toEqual({ enableHighAccuracy: false, timeout: 3000, maximumAge: 0 })
  })

  it("is null when the shopper refuses, when it cannot be found, and where there is no Geolocation API", async () => {
    for (const code of [1, 2, 3]) {
      await expect(requestShopperPosition({ geolocation: geolocation({ code }).api })).resolves.toBeNull()
    }
    await expect(requestShopperPosition({ geolocation: geolocation("throws").api })).resolves.toBeNull()
    await expect(requestShopperPosition({ geolocation: null })).resolves.toBeNull()
    // Node has no navigator.geolocation: a server asks nothing.
    await expect(requestShopperPosition()).resolves.toBeNull()
  })

  it("is sent as near=latitude,longitude to 3 decimals, and not at all when it is not a position on Earth", () => {
    expect(nearParam({ latitude: 51.4613, longitude: -0.1156 })).toBe("51.461,-0.116")
    expect(nearParam({ latitude: -0.0001, longitude: 0.00049 })).toBe("0,0")
    expect(nearParam({ latitude: 90, longitude: -180 })).toBe("90,-180")
    expect(nearParam({ latitude: 91, longitude: 0 })).toBeNull()
    expect(nearParam({ latitude: Number.NaN, longitude: 0 })).toBeNull()
    expect(nearParam(null)).toBeNull()
  })
})

describe("the rates near the shopper", () => {
  it("asks the route for the stores near the rounded position, in the same one request", async () => {
    const { sdk, calls } = fakeSdk(() => NEAR_RATES)
    const lastmile = createLastmileStorefront(sdk)
    const near = { latitude: 51.532178, longitude: -0.105843 }
    const step = await lastmile.loadDeliveryStep("cart_1", { locale: "en-GB" }, { near, headers: { a: "b" } })
    expect(calls).toEqual([
      {
        path: "/store/lastmile/rates",
        init: {
          method: "GET",
          query: { cart_id: "cart_1", near: "51.532,-0.106" },
          headers: { a: "b" },
          cache: "no-store",
        },
      },
    ])
    expect(step.collection[0]).toMatchObject({ storeName: "Islington store", distanceText: "0.7 km" })
  })

  it("asks without near when there is no position to send", async () => {
    const { sdk, calls } = fakeSdk(() => NEAR_RATES)
    const lastmile = createLastmileStorefront(sdk)
    await lastmile.listRates("cart_1", { near: null })
    await lastmile.listRates("cart_1", { near: { latitude: 123, longitude: 0 } })
    expect(calls.map((call) => call.init?.query)).toEqual([{ cart_id: "cart_1" }, { cart_id: "cart_1" }])
  })
})
