/** The location deliveries leave from, whose address is the quote's collection address (decision 16). */
/** Whether an option makes its location a dispatch location: a lastmile delivery option outside a pickup set. */
export function isDispatchOption(fulfillmentSetType: string | null | undefined, optionKind: string | null): boolean {
  return optionKind === "delivery" && fulfillmentSetType !== "pickup"
}

export function pickDispatchLocation<L extends { id: string }>(
  withDeliveryOption: L[],
  deliveryEnabledAtService: L[] = []
): { location: L; hasDeliveryOption: boolean } | null {
  const first = [...withDeliveryOption].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))[0]
  if (first) {
    return { location: first, hasDeliveryOption: true }
  }
  const matched = deliveryEnabledAtService[0]
  return matched ? { location: matched, hasDeliveryOption: false } : null
}
