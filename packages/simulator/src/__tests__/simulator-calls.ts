/** For the simulator's specs: a store with stock, and raw HTTP calls to the simulator with an API key. */
import { request } from "undici"
import type { LastmileSimulator } from "../server"
import { alwaysOpenHours } from "../defaults"
import type { SimLocation } from "../types"

/** A London store `store-<id>`, open around the clock, with collection on. */
export function testStore(id: string, stock: Record<string, number>, extra: Partial<SimLocation> = {}): SimLocation {
  return {
    fulfilmentLocationId: `fl_${id}`,
    externalLocationId: `store-${id}`,
    name: `Store ${id.toUpperCase()}`,
    address: { line1: `${id} High Street`, city: "London", postcode: "N1 1AA", country: "United Kingdom" },
    operatingHours: alwaysOpenHours(),
    collectionEnabled: true,
    stock,
    ...extra,
  }
}

/** One request to the simulator with `apiKey`; a string body is sent as it is. */
export async function callSimulator(
  sim: LastmileSimulator,
  apiKey: string,
  method: "GET" | "POST" | "PATCH",
  path: string,
  body?: unknown,
  headers: Record<string, string> = {}
): Promise<{ status: number; json: unknown }> {
  const response = await request(`${sim.url}${path}`, {
    method,
    headers: { "x-api-key": apiKey, ...(body !== undefined ? { "content-type": "application/json" } : {}), ...headers },
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  })
  const text = await response.body.text()
  return { status: response.statusCode, json: text ? JSON.parse(text) : undefined }
}
