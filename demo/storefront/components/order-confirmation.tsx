import { CheckCircleSolid } from "@medusajs/icons"
import { Badge, Button, Container, Heading, Text } from "@medusajs/ui"
import { describeChosenMethod, readChosenMethod } from "medusa-plugin-lastmile-storefront"
import { mailboxPath } from "../lib/mailbox"
import { deliveryPrice } from "../lib/prices"
import { DISPLAY, type Order, type Shop } from "../lib/shop"
import { shown } from "../lib/shown-text"
import { ReturnPanel } from "./return-panel"
import { TrackingPanel } from "./tracking-panel"

/** The placed order, its delivery or collection as it moves, and a return the shopper can request. */
export function OrderConfirmation({ shop, order, onNewOrder }: { shop: Shop; order: Order; onNewOrder: () => void }) {
  const name = order.shipping_address?.first_name
  const chosen = readChosenMethod(order)
  const method = chosen ? describeChosenMethod(chosen, { ...DISPLAY, currencyCode: order.currency_code }) : null
  return (
    <>
      <Container className="flex flex-col gap-y-2 px-6 py-4" data-testid="order-confirmation" data-order-id={order.id}>
        <div className="flex items-center gap-x-2">
          <CheckCircleSolid className="text-ui-tag-green-icon" />
          <Heading level="h2">
            Thank you{name ? `, ${name}` : ""}! Order #{order.display_id} is placed.
          </Heading>
        </div>
        <Text size="small" className="text-ui-fg-subtle">
          Order {order.id}, for {order.email}. This page follows your order as it moves.
        </Text>
        {chosen && method && (
          <div className="flex items-center gap-x-2" data-testid="confirmation-method">
            <Text size="small">
              {method.heading}: {shown(method.title, 140)}, {deliveryPrice(chosen.amount ?? 0, order.currency_code)}
            </Text>
            {method.priceNote && (
              <Badge color="orange" size="2xsmall" data-testid="confirmation-estimate">
                {method.priceNote}
              </Badge>
            )}
          </div>
        )}
        {chosen?.deliveryNote && (
          <Text size="small" className="text-ui-fg-subtle" data-testid="confirmation-note">
            Your note for the courier: “{shown(chosen.deliveryNote, 300)}”
          </Text>
        )}
        {order.email && (
          <a
            className="lm-link text-ui-fg-interactive self-start text-sm"
            href={mailboxPath(order.email)}
            target="_blank"
            rel="noreferrer"
            data-testid="mailbox-link"
          >
            Your emails about this order
          </a>
        )}
      </Container>
      <Container className="flex flex-col gap-y-4 px-6 py-4">
        <TrackingPanel shop={shop} orderId={order.id} />
      </Container>
      <Container className="flex flex-col gap-y-4 px-6 py-4">
        <ReturnPanel shop={shop} orderId={order.id} />
      </Container>
      <div className="flex justify-end">
        <Button variant="secondary" onClick={onNewOrder}>
          Shop again
        </Button>
      </div>
    </>
  )
}
