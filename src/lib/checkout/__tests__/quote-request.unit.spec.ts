import { buildQuoteRequest, toLineItems } from "../quote-request"
import { ukShopperAddress as shopper } from "../../../../integration-tests/helpers/service-requests"

const warehouse = { address_1: "Unit 7, Abbey Road", city: "London", postal_code: "NW10 7SJ", country_code: "gb" }

describe("buildQuoteRequest", () => {
  it("maps the cart to the service's request: country names, international phone, basket by SKU", () => {
    const result = buildQuoteRequest({
      merchantOrderId: "cart_1",
      merchantOrderName: "cart_1",
      deliveryType: "NEXT_DAY",
      items: [
        { variant_id: "variant_1", variant_sku: "TEE-M", quantity: 2 },
        { variant_id: "variant_2", variant_sku: null, quantity: 1 },
      ],
      shippingAddress: shopper,
      email: "ada@example.com",
      collectionAddress: warehouse,
    })
    expect(result).toEqual({
      ok: true,
      request: {
        deliveryType: "NEXT_DAY",
        collection: {
          address: { line1: "Unit 7, Abbey Road", city: "London", postcode: "NW10 7SJ", country: "United Kingdom" },
        },
        delivery: {
          address: { line1: "12 Long Acre", city: "London", postcode: "WC2E 9LH", country: "United Kingdom" },
        },
        customer: { firstName: "Ada", lastName: "Lovelace", email: "ada@example.com", phoneNumber: "+447911123456" },
        order: {
          merchantOrderId: "cart_1",
          merchantOrderName: "cart_1",
          lineItems: [
            { merchantProductId: "TEE-M", quantity: 2 },
            { merchantProductId: "variant_2", quantity: 1 },
          ],
        },
      },
    })
  })

  it("sends the store's external id for a collection", () => {
    const result = buildQuoteRequest({
      merchantOrderId: "order_1",
      merchantOrderName: "#1",
      deliveryType: "NEXT_DAY",
      items: [{ variant_sku: "TEE-M", quantity: 1 }],
      shippingAddress: shopper,
      email: "ada@example.com",
      collectionAddress: warehouse,
      merchantLocationId: "store-camden",
    })
    expect(result.ok && result.request.collection.merchantLocationId).toBe("store-camden")
  })

  it("lists what the shopper must fix instead of inventing it", () => {
    const result = buildQuoteRequest({
      merchantOrderId: "cart_1",
      merchantOrderName: "cart_1",
      deliveryType: "NEXT_DAY",
      items: [{ variant_sku: "TEE-M", quantity: 1 }],
      shippingAddress: { ...shopper, phone: "", postal_code: "", last_name: null },
      email: "",
      collectionAddress: warehouse,
    })
    expect(result.ok).toBe(false)
    const messages = result.ok ? [] : result.problems.map((p) => p.message)
    expect(messages).toEqual([
      "The shipping address needs a postcode.",
      "Enter the recipient's first and last name.",
      "Enter an email address so the courier can send updates.",
      "Enter a phone number so the courier can reach you.",
    ])
  })
})

describe("toLineItems", () => {
  it("sums quantities per product and can key on the variant id instead of the SKU", () => {
    const items = [
      { variant_id: "v1", variant_sku: "A", quantity: 1 },
      { variant_id: "v1", variant_sku: "A", quantity: "2" },
      { variant_id: "v2", variant_sku: "B", quantity: 0 },
    ]
    expect(toLineItems(items)).toEqual([{ merchantProductId: "A", quantity: 3 }])
    expect(toLineItems(items, "variant_id")).toEqual([{ merchantProductId: "v1", quantity: 3 }])
  })
})

describe("the basket", () => {
  it("leaves out lines that ship nothing, and reads an empty SKU as none", () => {
    expect(
      toLineItems([
        { variant_id: "variant_tee", variant_sku: "", quantity: 2 },
        { variant_id: "variant_card", variant_sku: "GIFT", quantity: 1, requires_shipping: false },
      ])
    ).toEqual([{ merchantProductId: "variant_tee", quantity: 2 }])
  })
})
