"use server"

import { sdk } from "@lib/config"
import { getAuthHeaders, getCacheTag } from "@lib/data/cookies"
import { LASTMILE_DISPLAY } from "@lib/util/lastmile-display"
import { HttpTypes } from "@medusajs/types"
import {
  type LastmileChoiceRef,
  type LastmileDeliveryStep,
  type LastmileFailureReason,
  type LastmileOrderTracking,
  type LastmilePosition,
  LastmileStorefrontError,
  createLastmileStorefront,
  nearParam,
  roundPosition,
} from "medusa-plugin-lastmile-storefront"
import { revalidateTag } from "next/cache"
import { cookies } from "next/headers"

// Each fault (a route missing, a refused publishable key, a server error) is logged once, with what to check.
const lastmile = createLastmileStorefront(sdk)

/** A failure as a server action can return it: Next.js replaces the message of one thrown in production. */
export type LastmileFailure = { reason: LastmileFailureReason; message: string }

/** Where the shopper said they are ("Use my location"), to about 100 m, for an hour: the stores nearest it first. */
const NEAR_COOKIE = "_lastmile_near"

/**
 * Keeps the shopper's position (rounded to 3 decimals, about 100 m) for the checkout's next renders, so the stores stay
 * nearest them first after each choice; null forgets it. Call it after `requestShopperPosition()`, then refresh.
 */
export async function setLastmileNear(position: LastmilePosition | null): Promise<void> {
  const jar = await cookies()
  const near = nearParam(position)
  if (!near) {
    jar.delete(NEAR_COOKIE)
    return
  }
  jar.set(NEAR_COOKIE, near, {
    maxAge: 60 * 60,
    httpOnly: true,
    sameSite: "strict",
    secure: process.env.NODE_ENV === "production",
    path: "/",
  })
}

/** The position kept by `setLastmileNear`, or null. */
async function keptNear(): Promise<LastmilePosition | null> {
  const [latitude, longitude] = ((await cookies()).get(NEAR_COOKIE)?.value ?? "").split(",").map(Number)
  return roundPosition({ latitude, longitude })
}

/**
 * The delivery step of the cart: every lastmile option priced from one
 * quote, the stores nearest the shopper first once they used their
 * location (else by their postcode). A step with nothing in it: the cart has no lastmile option. A
 * failure is not that: in development a fault of the set-up (the plugin's
 * route missing, the publishable key refused) stops the page with what to
 * fix; otherwise the checkout renders the other shipping options and says
 * delivery options could not be loaded.
 */
export async function getLastmileDeliveryStep(
  cart: HttpTypes.StoreCart
): Promise<{ step: LastmileDeliveryStep | null; failure: LastmileFailure | null }> {
  try {
    const step = await lastmile.loadDeliveryStep(
      cart.id,
      { cart, ...LASTMILE_DISPLAY },
      { headers: { ...(await getAuthHeaders()) }, near: await keptNear() }
    )
    return { step, failure: null }
  } catch (error) {
    if (!(error instanceof LastmileStorefrontError)) {
      throw error
    }
    if (process.env.NODE_ENV === "development" && !error.transient) {
      throw new Error(`lastmile: ${error.detail}`, { cause: error })
    }
    return { step: null, failure: { reason: error.reason, message: error.message } }
  }
}

/**
 * Puts a delivery rate or a store on the cart, a delivery with the shopper's note to the courier (`deliveryNote`; an
 * empty one removes it, none keeps the cart's). Resolves with the plugin's sentence when Medusa refuses.
 */
export async function chooseLastmileOption(
  cartId: string,
  choice: LastmileChoiceRef,
  deliveryNote?: string
): Promise<{ error: string | null }> {
  try {
    await lastmile.choose(
      cartId,
      { shippingOptionId: choice.shippingOptionId, rateCode: choice.rateCode, deliveryNote },
      { headers: { ...(await getAuthHeaders()) } }
    )
  } catch (error) {
    if (error instanceof LastmileStorefrontError) {
      return { error: error.message }
    }
    throw error
  }
  revalidateTag(await getCacheTag("carts"))
  return { error: null }
}

/**
 * The order's lastmile tracking, and where its booking stands while it is
 * not booked: what the confirmation reads while it waits (see
 * `LastmileTracking`).
 */
export async function getLastmileTracking(
  orderId: string
): Promise<{ tracking: LastmileOrderTracking | null; failure: LastmileFailure | null }> {
  try {
    const tracking = await lastmile.retrieveTracking(orderId, { headers: { ...(await getAuthHeaders()) } })
    return { tracking, failure: null }
  } catch (error) {
    if (error instanceof LastmileStorefrontError) {
      return { tracking: null, failure: { reason: error.reason, message: error.message } }
    }
    throw error
  }
}
