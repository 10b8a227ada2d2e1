/** Admin API calls as the dashboard makes them: an admin user's token, answers kept even when not 2xx. */
import type { MedusaContainer } from "@medusajs/framework/types"
import type { AxiosInstance, AxiosResponse } from "axios"
import { createAdminHeaders } from "./admin-auth"

export class Admin {
  constructor(
    private readonly api: AxiosInstance,
    private readonly headers: Record<string, string>
  ) {}

  get<T = Record<string, unknown>>(path: string): Promise<AxiosResponse<T>> {
    return this.api.get(path, { headers: this.headers, validateStatus: () => true })
  }

  post<T = Record<string, unknown>>(path: string, body?: unknown): Promise<AxiosResponse<T>> {
    return this.api.post(path, body, { headers: this.headers, validateStatus: () => true })
  }

  delete<T = Record<string, unknown>>(path: string): Promise<AxiosResponse<T>> {
    return this.api.delete(path, { headers: this.headers, validateStatus: () => true })
  }

  /** A call that must succeed: its answer, or a failure naming the path, status and body. */
  async ok<T = Record<string, unknown>>(path: string, body?: unknown): Promise<T> {
    const response = await this.post<T>(path, body)
    if (response.status !== 200) {
      throw new Error(`POST ${path} answered ${response.status}: ${JSON.stringify(response.data)}`)
    }
    return response.data
  }

  /** The dashboard's Create fulfillment: the location, the option, and the items it ships. */
  fulfil(
    orderId: string,
    { optionId, locationId, items }: { optionId: string; locationId: string; items: { id: string; quantity: number }[] }
  ): Promise<AxiosResponse<{ order: unknown; message?: string }>> {
    return this.post(`/admin/orders/${orderId}/fulfillments`, {
      location_id: locationId,
      shipping_option_id: optionId,
      no_notification: false,
      items,
    })
  }

  /** An exchange or a claim as the dashboard makes it (`requestReplacement`), each call required to succeed. */
  replacement(
    kind: "exchange" | "claim",
    order: { id: string; itemId: string },
    outbound: { variantId: string; optionId: string },
    returnOptionId?: string
  ): Promise<{ id: string; returnId: string }> {
    return requestReplacement(this.ok.bind(this), kind, order, outbound, returnOptionId)
  }
}

/** An admin POST that must succeed, answering its JSON: whichever client the caller has. */
export type AdminPost = <T>(path: string, body: unknown) => Promise<T>

/**
 * An exchange or a claim (`type: "replace"`) as the dashboard makes it:
 * created, the inbound item (by its return option, when given), the
 * outbound variant and its delivery option, then requested.
 */
export async function requestReplacement(
  post: AdminPost,
  kind: "exchange" | "claim",
  order: { id: string; itemId: string },
  outbound: { variantId: string; optionId: string },
  returnOptionId?: string
): Promise<{ id: string; returnId: string }> {
  const base = kind === "exchange" ? "/admin/exchanges" : "/admin/claims"
  const created = await post<Record<string, { id: string }>>(base, {
    order_id: order.id,
    ...(kind === "claim" ? { type: "replace" } : {}),
  })
  const id = created[kind].id
  const inbound = await post<{ return: { id: string } }>(`${base}/${id}/inbound/items`, {
    items: [{ id: order.itemId, quantity: 1 }],
  })
  if (returnOptionId) {
    await post(`${base}/${id}/inbound/shipping-method`, { shipping_option_id: returnOptionId })
  }
  await post(`${base}/${id}/outbound/items`, { items: [{ variant_id: outbound.variantId, quantity: 1 }] })
  await post(`${base}/${id}/outbound/shipping-method`, { shipping_option_id: outbound.optionId })
  await post(`${base}/${id}/request`, { no_notification: false })
  return { id, returnId: inbound.return.id }
}

let users = 0

/** A new admin user of the app, logged in. */
export async function adminFor(api: AxiosInstance, container: MedusaContainer): Promise<Admin> {
  const { headers } = await createAdminHeaders(container, `merchant-${++users}-${Date.now()}@lastmile.test`)
  return new Admin(api, headers)
}
