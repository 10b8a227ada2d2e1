/**
 * "The service's store list changed": the admin routes that read or change
 * the service's locations say so, and every store list held in this process
 * (the provider's, for attributing collection rates) is brought up to date.
 * A read hands over the list it read, which the holders adopt as it is; a
 * change (a collection switch) hands over nothing, and the holders read the
 * list again. Held lists are referenced weakly, so an app torn down (tests
 * boot several) leaves nothing behind. Other instances of an app hear
 * nothing; they read again on a rate their list cannot attribute (the
 * provider's store directory), within seconds.
 */
import type { ServiceFulfilmentLocation } from "../contracts/service-shapes"
import { weakSignal } from "../support/weak-signal"

const storeList = weakSignal<[locations?: ServiceFulfilmentLocation[]]>()

export const onStoreListChanged = storeList.on
/** `locations`: the list just read from the service, when the announcement comes from a read. */
export const announceStoreListChanged = storeList.emit
