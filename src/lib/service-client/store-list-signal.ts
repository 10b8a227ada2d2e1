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

type Listener = (locations?: ServiceFulfilmentLocation[]) => void

const listeners = new Set<WeakRef<Listener>>()

/** Calls `listener` on each announcement while the listener is alive (hold it as long as its owner). */
export function onStoreListChanged(listener: Listener): void {
  listeners.add(new WeakRef(listener))
}

/** `locations`: the list just read from the service, when the announcement comes from a read. */
export function announceStoreListChanged(locations?: ServiceFulfilmentLocation[]): void {
  for (const ref of listeners) {
    const listener = ref.deref()
    if (listener) {
      listener(locations)
    } else {
      listeners.delete(ref)
    }
  }
}
