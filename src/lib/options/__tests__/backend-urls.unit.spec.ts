import { resolvePluginOptions } from "../plugin-options"
import { adminOrderUrl, configuredBackendUrl, webhookUrl } from "../backend-urls"

const PATH = "/hooks/lastmile/whsec_0123456789abcdef"
const request = (headers: Record<string, string>, encrypted = false) =>
  ({ headers, socket: { encrypted } }) as unknown as Parameters<typeof webhookUrl>[1]
const forged = { host: "shop.example.com", "x-forwarded-proto": "https", "x-forwarded-host": "evil.example" }

describe("the webhook URL the admin shows", () => {
  it("comes from configuration when there is some, whatever the request says", () => {
    const configured = { url: "https://shop.example.com/medusa", source: "backend_url" as const }
    expect(webhookUrl(PATH, request(forged), { configured, trustForwarded: true })).toEqual({
      url: `https://shop.example.com/medusa${PATH}`,
      url_source: "backend_url",
    })
  })

  it("ignores forwarded headers unless the merchant trusts them, and then takes only their first value", () => {
    expect(webhookUrl(PATH, request(forged), { configured: null, trustForwarded: false })).toEqual({
      url: `http://shop.example.com${PATH}`,
      url_source: "request",
    })
    expect(webhookUrl(PATH, request(forged, true), { configured: null, trustForwarded: false }).url).toBe(
      `https://shop.example.com${PATH}`
    )
    const proxied = { ...forged, "x-forwarded-proto": "https, http", "x-forwarded-host": "shop.example.net, evil" }
    expect(webhookUrl(PATH, request(proxied), { configured: null, trustForwarded: true })).toEqual({
      url: `https://shop.example.net${PATH}`,
      url_source: "forwarded_headers",
    })
  })

  it("shows no URL rather than one made of a Host that is not a host", () => {
    for (const host of ["evil.example/x", "user@evil.example", "", "a b"]) {
      expect(webhookUrl(PATH, request({ host }), { configured: null, trustForwarded: false })).toEqual({
        url: null,
        url_source: null,
      })
    }
    // A forwarded header that is not one falls back to the request's own.
    const odd = { host: "shop.example.com", "x-forwarded-proto": "javascript", "x-forwarded-host": "evil.example" }
    expect(webhookUrl(PATH, request(odd), { configured: null, trustForwarded: true }).url_source).toBe("request")
    expect(webhookUrl(null, request(forged), { configured: null, trustForwarded: true }).url).toBeNull()
  })

  it("takes backend_url only as an absolute http(s) URL, checked at boot", () => {
    expect(resolvePluginOptions({ backend_url: "https://shop.example.com/" }).backendUrl).toBe(
      "https://shop.example.com"
    )
    for (const bad of ["shop.example.com", "javascript:alert(1)", "https://u:p@shop.example.com", "https://a/?x=1"]) {
      expect(() => resolvePluginOptions({ backend_url: bad })).toThrow(/backend_url must be an absolute http\(s\) URL/)
    }
    expect(() => resolvePluginOptions({ trust_forwarded_headers: "yes" as never })).toThrow(
      /trust_forwarded_headers must be true or false/
    )
  })

  it("names the backend from backend_url, else from Medusa's admin.backendUrl when it is absolute", () => {
    expect(configuredBackendUrl("https://shop.example.com", { backendUrl: "https://admin.example.com" })).toEqual({
      url: "https://shop.example.com",
      source: "backend_url",
    })
    expect(configuredBackendUrl(null, { backendUrl: "https://admin.example.com/medusa/" })).toEqual({
      url: "https://admin.example.com/medusa",
      source: "admin.backendUrl",
    })
    for (const backendUrl of ["/", "ftp://admin.example.com", "https://u:p@admin.example.com", "not a url"]) {
      expect(configuredBackendUrl(undefined, { backendUrl })).toBeNull()
    }
    expect(configuredBackendUrl(undefined, undefined)).toBeNull()
  })

  it("links an order's admin page, absolute when the backend is configured, under the admin's path", () => {
    const configured = { url: "https://shop.example.com", source: "backend_url" as const }
    expect(adminOrderUrl(configured, undefined, "order_1")).toBe("https://shop.example.com/app/orders/order_1")
    expect(adminOrderUrl(null, { path: "/dashboard/" }, "order 1")).toBe("/dashboard/orders/order%201")
  })
})
