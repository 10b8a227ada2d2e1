/**
 * Switches a service location's collection (PATCH collectionEnabled); compensation switches it back. Both directions
 * are announced, so the provider's held store list reads the service again (decision 26).
 */
import { MedusaError } from "@medusajs/framework/utils"
import { StepResponse, createStep } from "@medusajs/framework/workflows-sdk"
import {
  LastmileAuthenticationError,
  LastmileRejectedError,
  announceStoreListChanged,
  serviceErrorCodeOf,
} from "../../../lib/service-client"
import { ServiceConnectionService } from "../../../modules/lastmile/services/service-connection"
import { errorMessage } from "../../../lib/support/error-message"
import type { CollectionSwitchResult } from "../../../lib/contracts/admin-api"

export interface SetCollectionEnabledInput {
  /** The service's fulfilmentLocationId. */
  fulfilment_location_id: string
  enabled: boolean
}

export const setCollectionEnabledStepId = "lastmile-set-collection-enabled"

export const setCollectionEnabledStep = createStep(
  setCollectionEnabledStepId,
  async (input: SetCollectionEnabledInput, { container }) => {
    const connection = ServiceConnectionService.of(container).get()
    if (!connection) {
      throw new MedusaError(MedusaError.Types.NOT_ALLOWED, "The lastmile provider is not configured")
    }
    const id = input.fulfilment_location_id
    const notFound = () => new MedusaError(MedusaError.Types.NOT_FOUND, `The service has no fulfilment location ${id}`)
    // The service failing (a refused key, an outage) keeps its own error, whose code the route answers 502 by.
    const unchanged = (error: unknown) =>
      serviceErrorCodeOf(error)
        ? error
        : new MedusaError(
            MedusaError.Types.UNEXPECTED_STATE,
            `The service did not change collection for location ${id}: ${errorMessage(error)}`
          )
    // Read first: an id the service does not list is a NOT_FOUND (as is its own 404), and the previous value is known.
    let before
    try {
      before = (await connection.client.listFulfilmentLocations()).find((l) => String(l.fulfilmentLocationId) === id)
    } catch (error) {
      throw unchanged(error)
    }
    if (!before) {
      throw notFound()
    }
    let after
    try {
      after = await connection.client.setCollectionEnabled(before.fulfilmentLocationId, input.enabled)
    } catch (error) {
      // Removed at the service between the read and the change.
      if (error instanceof LastmileRejectedError && error.status === 404) {
        throw notFound()
      }
      // The service refused the change (a validation, a store it will not switch): the merchant's to act on,
      // a 400 with its words. A refused API key stays unexpected: a 401 here would sign the admin out.
      if (error instanceof LastmileRejectedError && !(error instanceof LastmileAuthenticationError)) {
        throw new MedusaError(
          MedusaError.Types.NOT_ALLOWED,
          `The service refused to change collection for location ${id}: ${errorMessage(error)}`
        )
      }
      throw unchanged(error)
    }
    announceStoreListChanged()
    const answer: CollectionSwitchResult = {
      fulfilment_location_id: id,
      collection_enabled: after?.collectionEnabled ?? input.enabled,
    }
    return new StepResponse(answer, { id: before.fulfilmentLocationId, previous: before.collectionEnabled })
  },
  async (undo, { container }) => {
    const connection = ServiceConnectionService.of(container).get()
    if (!undo || !connection) {
      return
    }
    await connection.client.setCollectionEnabled(undo.id, undo.previous)
    announceStoreListChanged()
  }
)
