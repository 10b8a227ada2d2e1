import { ShoppingBag } from "@medusajs/icons"
import { Alert, Button, Text } from "@medusajs/ui"
import { useEffect, useState } from "react"
import { formatAmount } from "medusa-plugin-lastmile-storefront"
import { type Cart, DISPLAY, type Product, type Shop } from "../lib/shop"
import { shopperMessage } from "../lib/messages"
import { SectionCard } from "./section-card"

/** The store's products (one variant each), each added to the bag with one click. */
export function ProductSection({
  shop,
  cart,
  onCart,
}: {
  shop: Shop
  cart: Cart | null
  onCart: (cart: Cart) => void
}) {
  const [products, setProducts] = useState<Product[] | null>(null)
  const [adding, setAdding] = useState<string | null>(null)
  const [error, setError] = useState<string | null>(null)

  useEffect(() => {
    shop.listProducts().then(setProducts, (e: unknown) => setError(shopperMessage(e)))
  }, [shop])

  const add = async (variantId: string) => {
    setAdding(variantId)
    setError(null)
    try {
      onCart(await shop.addToCart(cart, variantId))
    } catch (e) {
      setError(shopperMessage(e))
    } finally {
      setAdding(null)
    }
  }

  return (
    <SectionCard number={1} title="Your bag" testId="product-section">
      {error && <Alert variant="error">{error}</Alert>}
      {!products && !error && <Text className="text-ui-fg-subtle">Loading the products…</Text>}
      <div className="flex flex-col gap-y-3">
        {products?.map((product) => {
          const variant = product.variants?.[0]
          if (!variant) {
            return null
          }
          const price = variant.calculated_price
          return (
            <div key={product.id} className="flex items-center gap-x-4" data-testid={`product-${variant.sku}`}>
              <div className="bg-ui-bg-component flex size-12 items-center justify-center rounded-lg">
                <ShoppingBag className="text-ui-fg-muted" />
              </div>
              <div className="flex flex-1 flex-col">
                <Text weight="plus">{product.title}</Text>
                <Text size="small" className="text-ui-fg-subtle">
                  {typeof price?.calculated_amount === "number" && price.currency_code
                    ? formatAmount(price.calculated_amount, price.currency_code, DISPLAY)
                    : "Price on request"}
                </Text>
              </div>
              <Button
                variant="secondary"
                size="small"
                isLoading={adding === variant.id}
                disabled={adding !== null}
                onClick={() => void add(variant.id)}
              >
                Add to bag
              </Button>
            </div>
          )
        })}
      </div>
      {cart?.items?.length ? <BagLines cart={cart} /> : null}
    </SectionCard>
  )
}

function BagLines({ cart }: { cart: Cart }) {
  return (
    <div className="border-ui-border-base flex flex-col gap-y-1 border-t pt-3" data-testid="bag">
      {cart.items?.map((item) => (
        <div key={item.id} className="flex justify-between">
          <Text size="small">
            {item.quantity} × {item.product_title ?? item.title}
          </Text>
          <Text size="small">{formatAmount(item.unit_price * item.quantity, cart.currency_code, DISPLAY)}</Text>
        </div>
      ))}
    </div>
  )
}
