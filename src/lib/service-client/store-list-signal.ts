/**
 * "The service's store list changed" (decision 26): a read hands over its list, a change asks holders to read again;
 * holders are held weakly, and other instances re-read on a rate they cannot attribute.
 */
import type { ServiceFulfilmentLocation } from "../contracts/service-shapes"
import { weakSignal } from "../support/weak-signal"

const storeList = weakSignal<[locations?: ServiceFulfilmentLocation[]]>()

export const onStoreListChanged = storeList.on
/** `locations`: the list just read from the service, when the announcement comes from a read. */
export const announceStoreListChanged = storeList.emit
