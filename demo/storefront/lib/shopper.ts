/** The address form's fields, and the sample shopper the demo starts with. */
import type { HttpTypes } from "@medusajs/types"

export interface ShopperDetails {
  firstName: string
  lastName: string
  street: string
  city: string
  postcode: string
  email: string
  phone: string
}

/** The demo's region is the United Kingdom: the form ships to GB only. */
export const SHOPPER_COUNTRY = { code: "gb", name: "United Kingdom" }

/** A London shopper the service serves; change the postcode to ZE1 0AA or the phone to 123 to see what goes wrong. */
export const SAMPLE_SHOPPER: ShopperDetails = {
  firstName: "Ada",
  lastName: "Lovelace",
  street: "10 Downing Street",
  city: "London",
  postcode: "SW1A 2AA",
  email: "ada@example.com",
  phone: "07911 123456",
}

export function toCartAddress(details: ShopperDetails): HttpTypes.StoreAddAddress {
  return {
    first_name: details.firstName.trim(),
    last_name: details.lastName.trim(),
    address_1: details.street.trim(),
    city: details.city.trim(),
    postal_code: details.postcode.trim(),
    country_code: SHOPPER_COUNTRY.code,
    phone: details.phone.trim(),
  }
}
