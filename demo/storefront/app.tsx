/**
 * The checkout, top to bottom on one page: the bag, the shopper's details,
 * the lastmile delivery step, payment; then the order and its tracking.
 */
import { useState } from "react"
import {
  type LastmileChoice,
  type LastmileDeliveryStep,
  type LastmilePosition,
  type LastmileShopperAction,
  readChosenMethod,
  requestShopperPosition,
} from "medusa-plugin-lastmile-storefront"
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
  /** Where the shopper is, once they asked for the stores nearest them (rounded to about 100 m); else null. */
  const [near, setNear] = useState<LastmilePosition | null>(null)

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
      setStep(await shop.loadDeliveryStep(updated, near).catch(() => null))
    }
  }

  /**
   * "Use my location": the browser asks the shopper now, not before. Granted, the stores come nearest them first;
   * refused (or not found), they stay in order of the postcode. Says which it came to.
   */
  const locateShopper = async (): Promise<"near" | "postcode"> => {
    const position = await requestShopperPosition()
    if (!position || !cart) {
      return "postcode"
    }
    try {
      setStep(await shop.loadDeliveryStep(cart, position))
      setNear(position)
      return "near"
    } catch (error) {
      setChooseError(shopperMessage(error))
      return "postcode"
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
      setStep(await shop.loadDeliveryStep(updated, near))
      return null
    } catch (error) {
      return shopperMessage(error)
    }
  }

  /** The cart and its step read again: what the shopper sees once the service is back (or still down). */
  const refresh = async () => {
    if (!cart) {
      return
    }
    try {
      const current = await shop.retrieveCart(cart.id)
      setCart(current)
      setChooseError(null)
      setStep(await shop.loadDeliveryStep(current, near))
    } catch (error) {
      setChooseError(shopperMessage(error))
    }
  }

  const onAction = (action: LastmileShopperAction) => {
    if (action === "try_later") {
      void refresh()
    } else if (action === "edit_phone" || action === "edit_address") {
      editDetail(action === "edit_phone" ? "phone" : "postcode")
    }
  }

  const choose = async (choice: LastmileChoice, deliveryNote: string) => {
    if (!cart) {
      return
    }
    setPendingKey(choice.key)
    setChooseError(null)
    try {
      const chosen = await shop.choose(cart.id, { ...choice, deliveryNote }, near)
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
  const selected = [...(step?.delivery ?? []), ...(step?.collection ?? [])].find((c) => c.key === step?.selectedKey)
  return (
    <PageShell>
      <ProductSection shop={shop} cart={cart} onCart={(updated) => void onCart(updated)} />
      {cart && <AddressForm saved={step !== null} onSubmit={saveDetails} fieldErrors={fieldErrorsOf(step)} />}
      {step && (
        <DeliverySection
          step={step}
          pendingKey={pendingKey}
          error={chooseError}
          savedNote={(cart && readChosenMethod(cart)?.deliveryNote) ?? ""}
          onChoose={(choice, note) => void choose(choice, note)}
          onAction={onAction}
          onUseMyLocation={locateShopper}
        />
      )}
      {cart && selected && cart.shipping_methods?.length ? (
        <PaymentSection shop={shop} cart={cart} choice={selected} onOrder={setOrder} />
      ) : null}
    </PageShell>
  )
}

/** The shopper's details a quote could not use, each field with the plugin's sentence, shown beside the field. */
function fieldErrorsOf(step: LastmileDeliveryStep | null): Partial<Record<DetailField, string>> {
  const missing = step?.unavailable.find((u) => u.code === "input_incomplete")
  if (!missing) {
    return {}
  }
  const fields = missing.fields.flatMap((field) => FIELD_OF[field] ?? [])
  return Object.fromEntries(fields.map((field) => [field, missing.reason]))
}

type DetailField = "firstName" | "street" | "email" | "phone"

/** The form's field for each detail the plugin names (`unavailable_fields`). */
const FIELD_OF: Record<string, DetailField> = {
  "shipping_address.phone": "phone",
  "shipping_address.name": "firstName",
  shipping_address: "street",
  email: "email",
}

/** Takes the shopper to the field a reason asks about. */
function editDetail(field: "phone" | "postcode") {
  document.getElementById("address-section")?.scrollIntoView({ behavior: "smooth" })
  document.getElementById(field)?.focus({ preventScroll: true })
}
