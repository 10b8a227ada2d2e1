/**
 * What cannot be offered, said once per reason, with the options it affects and the one thing the shopper can do, and
 * what the whole step comes to: some options unavailable, or none.
 */
import type { LastmileChoice, LastmileUnavailableOption } from "./choices.js"

/**
 * What the shopper can do about a reason:
 * - `edit_phone`: the courier cannot dial the phone number, or there is none;
 * - `edit_address`: the address (or name, or email) is incomplete, or nothing serves it;
 * - `try_later`: the service cannot be reached for a moment;
 * - `choose_another`: nothing the shopper can change makes this option possible.
 */
export type LastmileShopperAction = "edit_phone" | "edit_address" | "try_later" | "choose_another"

/** Each action in words, for a button or a link. */
export const LASTMILE_ACTION_TEXT: Record<LastmileShopperAction, string> = {
  edit_phone: "Edit your phone number",
  edit_address: "Edit your address",
  try_later: "Try again",
  choose_another: "Choose another option",
}

export interface LastmileReasonGroup {
  /** The sentence, said once for every option it affects. */
  reason: string
  /** The machine-readable cause of its options (`route_not_served`, …); null for refused rates. */
  code: string | null
  action: LastmileShopperAction
  actionText: string
  /** The affected options' names, each once, in the step's order. */
  names: string[]
  options: LastmileUnavailableOption[]
}

/**
 * - `prices_unavailable`: live prices cannot be read right now: what is offered is at the merchant's estimate or at
 *   the price the shopper chose it at, and the other rates cannot be shown (`LIVE_PRICES_UNAVAILABLE_TEXT`);
 * - `some_unavailable`: some options can be offered, others cannot;
 * - `details_needed`: nothing can be offered until the shopper completes a detail (the text says which);
 * - `try_later`: nothing can be offered while the service cannot be reached;
 * - `none_available`: nothing can be offered: the address is not served (with the address to edit), or for a
 *   reason the shopper cannot fix (no action, `NOTHING_OFFERED_TEXT`).
 */
export type LastmileVerdictKind =
  "prices_unavailable" | "some_unavailable" | "details_needed" | "try_later" | "none_available"

export interface LastmileStepVerdict {
  kind: LastmileVerdictKind
  text: string
  /** What the shopper can do about the whole step; null when choosing among what is offered is all. */
  action: LastmileShopperAction | null
  actionText: string | null
}

export interface LastmileUnavailableSummary {
  /** What the step comes to; null when everything can be offered. */
  verdict: LastmileStepVerdict | null
  /**
   * Each reason once; a reason the verdict already says (a detail to fix, an
   * outage, an address nothing serves) is not repeated here.
   */
  groups: LastmileReasonGroup[]
}

export const SOME_UNAVAILABLE_TEXT = "Some options are not available for this order."
/**
 * During an outage only what has a price without a live quote is offered
 * (the merchant's estimate, or the price a choice keeps): the service's other
 * rates are not known until it answers again.
 */
export const LIVE_PRICES_UNAVAILABLE_TEXT =
  "Live delivery prices are unavailable right now, so other delivery rates cannot be shown. Please try again in a moment."
/** Nothing can be offered while the service cannot be reached, for deliveries and stores alike. */
export const OUTAGE_TEXT = "Delivery and collection cannot be confirmed right now. Please try again in a moment."
export const NOTHING_OFFERED_TEXT =
  "No delivery or collection can be offered for this order right now. Please contact the shop if this persists."
export const NONE_AVAILABLE_TEXT =
  "We cannot deliver this order to this address, and no store can offer it for collection. Check the postcode, or try another address."

/** The unavailable options of a step (`toDeliveryStep`) grouped by reason, with the step's verdict. */
export function summariseUnavailable(step: {
  delivery: readonly LastmileChoice[]
  collection: readonly LastmileChoice[]
  unavailable: readonly LastmileUnavailableOption[]
}): LastmileUnavailableSummary {
  const offered = [...step.delivery, ...step.collection]
  const anyOffered = offered.length > 0
  const groups = groupByReason(step.unavailable, anyOffered)
  const verdict = verdictOf(
    groups,
    anyOffered,
    offered.some((choice) => choice.estimate || choice.kept)
  )
  return { verdict, groups: groups.filter((group) => !saidBy(verdict, group)) }
}

/** Whether the verdict already says what the group would: its sentence, or (an address nothing serves) its cause. */
function saidBy(verdict: LastmileStepVerdict | null, group: LastmileReasonGroup): boolean {
  switch (verdict?.kind) {
    case "details_needed":
      return group.reason === verdict.text
    case "try_later":
      return group.action === "try_later"
    case "none_available":
      return verdict.action === "edit_address" && group.code === "route_not_served"
    default:
      return false
  }
}

function groupByReason(options: readonly LastmileUnavailableOption[], anyOffered: boolean): LastmileReasonGroup[] {
  const byReason = new Map<string, LastmileReasonGroup>()
  for (const option of options) {
    const group = byReason.get(option.reason)
    if (!group) {
      const action = actionFor(option, anyOffered)
      byReason.set(option.reason, {
        reason: option.reason,
        code: option.code,
        action,
        actionText: LASTMILE_ACTION_TEXT[action],
        names: [option.name],
        options: [option],
      })
      continue
    }
    group.options.push(option)
    if (!group.names.includes(option.name)) {
      group.names.push(option.name)
    }
  }
  return [...byReason.values()]
}

/** The one thing the shopper can do about an option's reason. */
export function actionFor(
  option: Pick<LastmileUnavailableOption, "code" | "fields">,
  anyOffered: boolean
): LastmileShopperAction {
  switch (option.code) {
    case "input_incomplete":
      return detailsAction(option.fields)
    case "service_unavailable":
      return "try_later"
    case "route_not_served":
      // Another option already reaches the address: take it rather than move house.
      return anyOffered ? "choose_another" : "edit_address"
    default:
      return "choose_another"
  }
}

/**
 * Which detail an `input_incomplete` reason asks for, by the fields the route
 * names: a phone alone asks for the phone; the store's own address is the
 * merchant's to fix, not the shopper's; anything else is the address form.
 */
function detailsAction(fields: readonly string[]): LastmileShopperAction {
  const shoppers = fields.filter((field) => field !== "store_address")
  if (fields.length && !shoppers.length) {
    return "choose_another"
  }
  return shoppers.length && shoppers.every((field) => field === "shipping_address.phone")
    ? "edit_phone"
    : "edit_address"
}

function verdictOf(
  groups: LastmileReasonGroup[],
  anyOffered: boolean,
  withoutLivePrices: boolean
): LastmileStepVerdict | null {
  if (anyOffered && withoutLivePrices) {
    return {
      kind: "prices_unavailable",
      text: LIVE_PRICES_UNAVAILABLE_TEXT,
      action: "try_later",
      actionText: LASTMILE_ACTION_TEXT.try_later,
    }
  }
  if (anyOffered) {
    return groups.length
      ? { kind: "some_unavailable", text: SOME_UNAVAILABLE_TEXT, action: null, actionText: null }
      : null
  }
  const details = groups.find((group) => group.code === "input_incomplete" && group.action !== "choose_another")
  if (details) {
    return { kind: "details_needed", text: details.reason, action: details.action, actionText: details.actionText }
  }
  const outages = groups.filter((group) => group.action === "try_later")
  if (outages.length) {
    // One sentence for the whole outage: a delivery's and a store's words when both are out.
    const text = outages.length === 1 ? outages[0].reason : OUTAGE_TEXT
    return { kind: "try_later", text, action: "try_later", actionText: LASTMILE_ACTION_TEXT.try_later }
  }
  // The address is to blame only when the service said it cannot serve it; anything else (a store out of stock,
  // a refusal, the shop's own set-up) is not the shopper's to fix by moving house.
  const addressRefused =
    groups.some((group) => group.code === "route_not_served") &&
    groups.every((group) => group.code === "route_not_served" || group.code === "rate_missing")
  return addressRefused
    ? {
        kind: "none_available",
        text: NONE_AVAILABLE_TEXT,
        action: "edit_address",
        actionText: LASTMILE_ACTION_TEXT.edit_address,
      }
    : { kind: "none_available", text: NOTHING_OFFERED_TEXT, action: null, actionText: null }
}
