/**
 * The checkout, top to bottom on one page: the bag, the shopper's details,
 * the lastmile delivery step, payment; then the order and its tracking.
 */
import { useState } from "react"
import type { LastmileChoice, LastmileDeliveryStep } from "../../../src/storefront"
import { AddressForm } from "./components/address-form"
import { DeliverySection } from "./components/delivery-section"
import { OrderConfirmation } from "./components/order-confirmation"
import { PageShell } from "./components/page-shell"
import { PaymentSection } from "./components/payment-section"
import { ProductSection } from "./components/product-section"
import { shopperMessage } from "./lib/messages"
import type { Cart, Order, Shop } from "./lib/shop"
import type { ShopperDetails } from "./lib/shopper"

export function App({ shop }: { shop: Shop }) {
  const [cart, setCart] = useState<Cart | null>(null)
  const [step, setStep] = useState<LastmileDeliveryStep | null>(null)
  const [pendingKey, setPendingKey] = useState<string | null>(null)
  const [chooseError, setChooseError] = useState<string | null>(null)
  const [order, setOrder] = useState<Order | null>(null)

  const startOver = () => {
    setCart(null)
    setStep(null)
    setChooseError(null)
    setOrder(null)
  }

  /** A new bag changes the quote: the step is read again once the shopper's details are in. */
  const onCart = async (updated: Cart) => {
    setCart(updated)
    if (step) {
      setStep(await shop.loadDeliveryStep(updated).catch(() => null))
    }
  }

  const saveDetails = async (details: ShopperDetails): Promise<string | null> => {
    if (!cart) {
      return "Add something to your bag first."
    }
    try {
      const updated = await shop.saveDetails(cart.id, details)
      setCart(updated)
      setChooseError(null)
      setStep(await shop.loadDeliveryStep(updated))
      return null
    } catch (error) {
      return shopperMessage(error)
    }
  }

  const choose = async (choice: LastmileChoice) => {
    if (!cart) {
      return
    }
    setPendingKey(choice.key)
    setChooseError(null)
    try {
      const chosen = await shop.choose(cart.id, choice)
      setCart(chosen.cart)
      setStep(chosen.step)
    } catch (error) {
      // Medusa's 400 carries the plugin's sentence, e.g. "Enter a phone number so the courier can reach you."
      setChooseError(shopperMessage(error))
    } finally {
      setPendingKey(null)
    }
  }

  if (order) {
    return (
      <PageShell>
        <OrderConfirmation shop={shop} order={order} onNewOrder={startOver} />
      </PageShell>
    )
  }
  const chosen = Boolean(step?.selectedKey && cart?.shipping_methods?.length)
  return (
    <PageShell>
      <ProductSection shop={shop} cart={cart} onCart={(updated) => void onCart(updated)} />
      {cart && <AddressForm saved={step !== null} onSubmit={saveDetails} />}
      {step && (
        <DeliverySection
          step={step}
          pendingKey={pendingKey}
          error={chooseError}
          onChoose={(choice) => void choose(choice)}
          onEditDetails={() => document.getElementById("address-section")?.scrollIntoView({ behavior: "smooth" })}
        />
      )}
      {cart && chosen && <PaymentSection shop={shop} cart={cart} onOrder={setOrder} />}
    </PageShell>
  )
}
