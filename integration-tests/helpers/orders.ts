/** Placing orders and returns through the APIs, and waiting for their lastmile task to settle. */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import type { AxiosInstance } from "axios"
import type { LastmileModuleService } from "../../src/modules/lastmile/service"
import { bookingLockKey } from "../../src/workflows/book-task"
import { createAdminHeaders } from "./admin-auth"
import type { SeededStore } from "./seed-store"
import { type Storefront, londonShopper, placeOrder } from "./storefront"

export interface TaskRow {
  id: string
  kind: "delivery" | "return"
  status: string
  task_id: string | null
  tracking_id: string | null
  tracking_url: string | null
  fulfillment_id: string | null
  attempts: number
  adopted: boolean
  last_error: string | null
  rate_code: string | null
  merchant_location_id: string | null
  service_status: string | null
  tracking_state: string
  unmapped_status: string | null
  status_history: { entries: { value: string; source?: string; phase?: string }[] }
  last_checked_at: Date | string | null
}

export function lastmileTasks(container: MedusaContainer): LastmileModuleService {
  return container.resolve<LastmileModuleService>("lastmile")
}

/**
 * Waits until the task of a merchantOrderId satisfies `done` (by default: its
 * booking settled), and the run that got it there has let go of its lock: a
 * run records its outcome before it releases the lock, and the retry job's
 * pass does not wait for a lock (it reports the delivery `busy`).
 */
/** Waits (up to 10 s) until nobody holds the lock; a holder that stays is for the test's own assertions to find. */
async function lockReleased(container: MedusaContainer, key: string): Promise<void> {
  const locking = container.resolve(Modules.LOCKING)
  for (let tries = 0; tries < 200; tries++) {
    const free = await locking.acquire(key, { ownerId: "test-probe", expire: 1 }).then(
      () => true,
      () => false
    )
    if (free) {
      await locking.release(key, { ownerId: "test-probe" })
      return
    }
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

/** Every line of the order with its whole quantity (computed: only "items.*" returns it). */
export async function orderItems(
  container: MedusaContainer,
  orderId: string
): Promise<{ id: string; quantity: number }[]> {
  const { data } = await container
    .resolve(ContainerRegistrationKeys.QUERY)
    .graph({ entity: "order", fields: ["items.*"], filters: { id: orderId } })
  return ((data[0]?.items ?? []) as unknown as { id: string; quantity: number }[]).map((i) => ({
    id: i.id,
    quantity: Number(i.quantity),
  }))
}

/** The order's fulfillments with their (public) data, labels and cancellation. */
export async function orderFulfillments(
  container: MedusaContainer,
  orderId: string
): Promise<
  {
    id: string
    data: Record<string, unknown>
    canceled_at: string | null
    labels: { tracking_number: string; tracking_url: string }[]
  }[]
> {
  const { data } = await container.resolve(ContainerRegistrationKeys.QUERY).graph({
    entity: "order",
    fields: ["fulfillments.id", "fulfillments.data", "fulfillments.labels.*", "fulfillments.canceled_at"],
    filters: { id: orderId },
  })
  return (data[0]?.fulfillments ?? []) as unknown as Awaited<ReturnType<typeof orderFulfillments>>
}

export async function waitForTask(
  container: MedusaContainer,
  merchantOrderId: string,
  done: (task: TaskRow) => boolean = (task) => ["booked", "failed", "needs_attention"].includes(task.status),
  timeoutMs = 20_000
): Promise<TaskRow> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const [task] = (await lastmileTasks(container).listLastmileTasks({
      merchant_order_id: merchantOrderId,
    })) as unknown as TaskRow[]
    if (task && done(task)) {
      await lockReleased(container, bookingLockKey(merchantOrderId))
      return task
    }
    if (Date.now() > deadline) {
      throw new Error(`task of ${merchantOrderId} did not get there: ${JSON.stringify(task)}`)
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

/** A London shopper's order of one tee with the given shipping option. */
export async function orderWith(
  shop: Storefront,
  seed: SeededStore,
  optionId: string,
  beforeComplete?: () => void,
  /** The choice's `data`, as a storefront sends it (`rate_code`, `delivery_note`). */
  data?: Record<string, unknown>
): Promise<{ id: string; display_id: number }> {
  const cart = await shop.createCart({
    region_id: seed.regions.gbp,
    email: "ada@example.com",
    shipping_address: londonShopper,
    items: [{ variant_id: seed.variants.tee, quantity: 1 }],
  })
  const chosen = await shop.post(
    `/store/carts/${cart.id}/shipping-methods`,
    data ? { option_id: optionId, data } : { option_id: optionId }
  )
  expect(chosen.status).toBe(200)
  beforeComplete?.()
  return placeOrder(shop, cart.id)
}

/** Requests a return of the order's first item through the admin API, with the lastmile return option. */
export async function requestReturn(
  api: AxiosInstance,
  container: MedusaContainer,
  seed: SeededStore,
  orderId: string,
  adminEmail: string,
  /** The dashboard's "Send notification" switch, off: `no_notification: true` when the merchant confirms. */
  { noNotification = false }: { noNotification?: boolean } = {}
): Promise<string> {
  const admin = await createAdminHeaders(container, adminEmail)
  const call = async (path: string, body: unknown) => {
    const response = await api.post(path, body, { ...admin, validateStatus: () => true })
    expect({ path, status: response.status, body: response.status === 200 ? null : response.data }).toMatchObject({
      status: 200,
    })
    return response.data
  }
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({ entity: "order", fields: ["items.id"], filters: { id: orderId } })
  const created = await call("/admin/returns", { order_id: orderId, location_id: seed.warehouseId })
  const returnId = created.return.id as string
  await call(`/admin/returns/${returnId}/request-items`, { items: [{ id: data[0].items![0]!.id, quantity: 1 }] })
  await call(`/admin/returns/${returnId}/shipping-method`, { shipping_option_id: seed.options.returns })
  await call(`/admin/returns/${returnId}/request`, noNotification ? { no_notification: true } : {})
  return returnId
}
