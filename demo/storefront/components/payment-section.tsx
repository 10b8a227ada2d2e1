import { Alert, Badge, Button, Text } from "@medusajs/ui"
import { useState } from "react"
import {
  type LastmileChoice,
  describeChosenMethod,
  formatAmount,
  readChosenMethod,
} from "medusa-plugin-lastmile-storefront"
import { rememberOrder } from "../lib/mailbox"
import { shopperMessage } from "../lib/messages"
import { deliveryPrice } from "../lib/prices"
import { type Cart, DISPLAY, type Order, type Shop } from "../lib/shop"
import { shown } from "../lib/shown-text"
import { SectionCard } from "./section-card"

/**
 * The totals, and one button that pays with Medusa's system payment provider and places the order.
 * The delivery line names the choice as its row does, at the amount the cart's method is charged:
 * the rates route prices the chosen option at that amount in every state, so the two agree. A
 * method chosen at the shop's estimate says so here too.
 */
export function PaymentSection({
  shop,
  cart,
  choice,
  onOrder,
}: {
  shop: Shop
  cart: Cart
  choice: LastmileChoice
  onOrder: (order: Order) => void
}) {
  const [placing, setPlacing] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const money = (amount: number | null | undefined) => formatAmount(amount ?? 0, cart.currency_code, DISPLAY)
  const method = cart.shipping_methods?.at(-1)
  const choiceName = shown(choice.kind === "collection" ? `Collect from ${choice.storeName}` : choice.name, 140)
  const chosen = readChosenMethod(cart)
  const priceNote = chosen ? describeChosenMethod(chosen).priceNote : null

  const place = async () => {
    setPlacing(true)
    setError(null)
    try {
      const order = await shop.placeOrder(cart)
      // The demo's mailbox shows this browser the emails of the orders it placed; a miss only hides them there.
      await rememberOrder(order.id).catch(() => undefined)
      onOrder(order)
    } catch (e) {
      setError(shopperMessage(e))
      setPlacing(false)
    }
  }

  return (
    <SectionCard
      number={4}
      title="Pay"
      hint="Paid with Medusa's system payment provider: nothing is charged in this demo."
      testId="payment-section"
    >
      <div className="flex flex-col gap-y-1" data-testid="totals">
        <Row label="Items" value={money(cart.item_subtotal)} />
        <Row
          label={choiceName}
          note={priceNote}
          value={deliveryPrice(method?.amount ?? cart.shipping_subtotal ?? 0, cart.currency_code)}
          testId="summary-delivery"
        />
        {chosen?.deliveryNote && (
          <Text size="small" className="text-ui-fg-subtle" data-testid="summary-note">
            Note for the courier: “{shown(chosen.deliveryNote, 300)}”
          </Text>
        )}
        <Row label="Tax" value={money(cart.tax_total)} />
        <div className="border-ui-border-base mt-1 border-t pt-2">
          <Row label="Total" value={money(cart.total)} strong />
        </div>
      </div>
      {error && (
        <Alert variant="error" data-testid="payment-error">
          <span role="alert">{error}</span>
        </Alert>
      )}
      <div className="flex justify-end">
        <Button isLoading={placing} onClick={() => void place()} data-testid="place-order">
          Place order
        </Button>
      </div>
    </SectionCard>
  )
}

function Row({
  label,
  note = null,
  value,
  strong = false,
  testId,
}: {
  label: string
  /** Beside the label: "Estimated price" for a price that is not a live quote's. */
  note?: string | null
  value: string
  strong?: boolean
  testId?: string
}) {
  return (
    <div className="flex justify-between" data-testid={testId}>
      <div className="flex items-center gap-x-2">
        <Text size="small" weight={strong ? "plus" : "regular"}>
          {label}
        </Text>
        {note && (
          <Badge color="orange" size="2xsmall" data-testid="summary-estimate">
            {note}
          </Badge>
        )}
      </div>
      <Text size="small" weight={strong ? "plus" : "regular"}>
        {value}
      </Text>
    </div>
  )
}
