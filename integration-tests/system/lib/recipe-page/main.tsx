/**
 * The DTC starter recipe's own components and data layer (docs/storefront/dtc-starter), rendered as the starter renders
 * them, against the demo's backend: what the browser test checks with axe-core and the keyboard alone.
 */
// The Medusa UI preset's classes, as the starter's Tailwind build has them (its own theme is not reproduced).
import "@medusajs/dashboard/css"
import "./tailwind.css"
import type { HttpTypes } from "@medusajs/types"
import { StrictMode, useCallback, useEffect, useState } from "react"
import { createRoot } from "react-dom/client"
import { type LastmileDeliveryStep, readChosenMethod } from "medusa-plugin-lastmile-storefront"
import { getLastmileDeliveryStep } from "@lib/data/lastmile"
import LastmileOptions from "@modules/checkout/components/lastmile-options"
import LastmileSummary from "@modules/checkout/components/lastmile-summary"
import LastmileShippingDetails from "@modules/order/components/lastmile-shipping-details"
import { PAGE_CONFIG, sdk } from "./stand-ins/config"
import { SAMPLE_SHOPPER, toCartAddress } from "../../../../demo/storefront/lib/shopper"

/** The starter's `retrieveCart` fields with the recipe's `+shipping_methods.data`. */
const CART_FIELDS =
  "*items, *region, *items.product, *items.variant, +items.total, *promotions, +shipping_methods.name, +shipping_methods.data"
/** The starter's `retrieveOrder` fields with the recipe's `*fulfillments`. */
const ORDER_FIELDS = "*payment_collections.payments,*items,*items.metadata,*items.variant,*items.product,*fulfillments"

type Cart = HttpTypes.StoreCart
type Order = HttpTypes.StoreOrder

/** A bag with one tee, the sample London shopper's address, then the recipe's step: what §3 renders. */
async function startCheckout(): Promise<Cart> {
  const { products } = await sdk.store.product.list({ region_id: PAGE_CONFIG.regionId, fields: "id,+variants.sku" })
  const tee = products.flatMap((p) => p.variants ?? []).find((v) => v.sku === "DEMO-TEE")
  if (!tee) {
    throw new Error("the demo store has no DEMO-TEE")
  }
  const { cart } = await sdk.store.cart.create({
    region_id: PAGE_CONFIG.regionId,
    items: [{ variant_id: tee.id, quantity: 1 }],
  })
  const address = toCartAddress(SAMPLE_SHOPPER)
  await sdk.store.cart.update(cart.id, {
    email: SAMPLE_SHOPPER.email,
    shipping_address: address,
    billing_address: address,
  })
  return (await sdk.store.cart.retrieve(cart.id, { fields: CART_FIELDS })).cart
}

function RecipePage() {
  const [cart, setCart] = useState<Cart | null>(null)
  const [step, setStep] = useState<LastmileDeliveryStep | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [order, setOrder] = useState<Order | null>(null)
  const [placing, setPlacing] = useState(false)

  /** What a server render after `revalidateTag` reads: the cart, and the step for it. */
  const render = useCallback(async (cartId: string) => {
    const { cart: current } = await sdk.store.cart.retrieve(cartId, { fields: CART_FIELDS })
    const loaded = await getLastmileDeliveryStep(current)
    setCart(current)
    setStep(loaded.step)
    setError(loaded.failure?.message ?? null)
  }, [])

  useEffect(() => {
    startCheckout().then(
      (created) => render(created.id),
      (e: unknown) => setError(e instanceof Error ? e.message : String(e))
    )
  }, [render])

  const place = async () => {
    if (!cart) {
      return
    }
    setPlacing(true)
    await sdk.store.payment.initiatePaymentSession(cart, { provider_id: "pp_system_default" })
    const completed = await sdk.store.cart.complete(cart.id)
    if (completed.type === "cart") {
      setError(completed.error.message)
      setPlacing(false)
      return
    }
    const { order: placed } = await sdk.store.order.retrieve(completed.order.id, { fields: ORDER_FIELDS })
    setOrder(placed)
  }

  if (order) {
    const chosen = readChosenMethod(order)
    return (
      <main className="mx-auto max-w-3xl p-8" data-testid="recipe-order" data-order-id={order.id}>
        <h1 className="text-xl">Thank you: order #{order.display_id}</h1>
        {chosen && <LastmileShippingDetails order={order} chosen={chosen} />}
      </main>
    )
  }
  const chosen = cart ? readChosenMethod(cart) : null
  return (
    <main className="mx-auto flex max-w-3xl flex-col gap-y-6 p-8" data-testid="recipe-checkout">
      <h1 className="text-xl">Delivery</h1>
      {step && cart && (
        <div data-testid="delivery-options-container">
          <LastmileOptions
            cartId={cart.id}
            step={step}
            savedNote={chosen?.deliveryNote ?? null}
            onEditAddress={() => undefined}
            onRetry={() => void render(cart.id)}
            onChosen={() => void render(cart.id)}
            onError={setError}
          />
        </div>
      )}
      {error && (
        <p role="alert" className="text-ui-fg-error" data-testid="recipe-error">
          {error}
        </p>
      )}
      {cart && chosen && (
        <section aria-labelledby="review-heading" className="flex flex-col gap-y-4">
          <h2 id="review-heading" className="text-lg">
            Review
          </h2>
          <LastmileSummary cart={cart} />
          <button
            type="button"
            className="min-h-[32px] self-start rounded-md bg-ui-button-inverted px-4 text-ui-fg-on-inverted"
            disabled={placing}
            onClick={() => void place()}
            data-testid="recipe-place-order"
          >
            Place order
          </button>
        </section>
      )}
    </main>
  )
}

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <RecipePage />
  </StrictMode>
)
