/**
 * The shapes the helpers take from the app: the part of js-sdk they call (structurally, so this package never loads
 * it) and the fields of Medusa's store cart and order they read.
 */

/** A store's address as the shopper is shown it (the stock location's, or the one kept on the method). */
export interface LastmileStoreAddress {
  address_1: string | null
  address_2: string | null
  city: string | null
  postal_code: string | null
  country_code: string | null
}

/**
 * The request options a call passes through to `sdk.client.fetch`: a
 * customer's auth header, and Next.js's cache options (a Next app's `fetch`
 * reads `cache` and `next`; elsewhere they are ignored).
 */
export interface LastmileRequestOptions {
  headers?: Record<string, string>
  cache?: "default" | "force-cache" | "no-cache" | "no-store" | "only-if-cached" | "reload"
  next?: { revalidate?: number | false; tags?: string[] }
}

/** What the helpers hand `sdk.client.fetch`: a subset of js-sdk's `FetchArgs`. */
export interface LastmileFetchInit extends LastmileRequestOptions {
  method: "GET" | "POST"
  query?: Record<string, string>
  body?: Record<string, unknown>
}

/**
 * The part of js-sdk's `Medusa` the helpers use; `new Medusa({...})` is one.
 * `fetch` resolves with the parsed JSON and rejects with js-sdk's `FetchError`
 * (`message` from Medusa's error body, `status`) on a non-2xx answer.
 */
export interface LastmileSdk {
  client: {
    fetch<T>(input: string, init?: LastmileFetchInit): Promise<T>
  }
}

/** A cart's shipping method as the store API returns it (`data` with `fields=+shipping_methods.data`). */
export interface LastmileCartShippingMethod {
  id?: string
  shipping_option_id?: string | null
  name?: string | null
  amount?: number | null
  data?: Record<string, unknown> | null
}

/** The fields of a store cart the helpers read. Medusa's `StoreCart` is one. */
export interface LastmileCartLike {
  id: string
  shipping_methods?: LastmileCartShippingMethod[] | null
}

/** A date as Medusa's JSON carries it (a string), or as typed by `@medusajs/types` (a Date). */
export type LastmileDateLike = string | Date

/** The fields of a store order the tracking reads. Medusa's `StoreOrder` is one. */
export interface LastmileOrderLike {
  id: string
  shipping_methods?:
    | {
        name?: string | null
        shipping_option_id?: string | null
        data?: Record<string, unknown> | null
      }[]
    | null
  fulfillments?:
    | {
        id: string
        provider_id?: string | null
        data?: Record<string, unknown> | null
        shipped_at?: LastmileDateLike | null
        delivered_at?: LastmileDateLike | null
        canceled_at?: LastmileDateLike | null
        created_at?: LastmileDateLike | null
        /** Only when the host app lets the store API read them; the same code and link are in `data`. */
        labels?: { tracking_number?: string | null; tracking_url?: string | null }[] | null
      }[]
    | null
}
