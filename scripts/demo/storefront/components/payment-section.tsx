import { Alert, Button, Text } from "@medusajs/ui"
import { useState } from "react"
import { formatAmount } from "../../../../src/storefront"
import { shopperMessage } from "../lib/messages"
import { type Cart, DISPLAY, type Order, type Shop } from "../lib/shop"
import { SectionCard } from "./section-card"

/** The totals, and one button that pays with Medusa's system payment provider and places the order. */
export function PaymentSection({ shop, cart, onOrder }: { shop: Shop; cart: Cart; onOrder: (order: Order) => void }) {
  const [placing, setPlacing] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const money = (amount: number | null | undefined) => formatAmount(amount ?? 0, cart.currency_code, DISPLAY)
  const method = cart.shipping_methods?.at(-1)

  const place = async () => {
    setPlacing(true)
    setError(null)
    try {
      onOrder(await shop.placeOrder(cart))
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
        <Row label={method?.name ?? "Delivery"} value={money(cart.shipping_subtotal)} />
        <Row label="Tax" value={money(cart.tax_total)} />
        <div className="border-ui-border-base mt-1 border-t pt-2">
          <Row label="Total" value={money(cart.total)} strong />
        </div>
      </div>
      {error && (
        <Alert variant="error" data-testid="payment-error">
          {error}
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

function Row({ label, value, strong = false }: { label: string; value: string; strong?: boolean }) {
  return (
    <div className="flex justify-between">
      <Text size="small" weight={strong ? "plus" : "regular"}>
        {label}
      </Text>
      <Text size="small" weight={strong ? "plus" : "regular"}>
        {value}
      </Text>
    </div>
  )
}
