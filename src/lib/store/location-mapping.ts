/**
 * What linking, unlinking or creating a stock location for a service location changes (decisions 17, 27), decided
 * before anything is changed.
 */
import type { ServiceFulfilmentLocation } from "../contracts/service-shapes"
import { mappedExternalId, storeExternalId } from "./store-identity"
import {
  type StockAddressInput,
  type StockLocationRow,
  createRefusal,
  hasOption,
  linkRefusal,
  serviceLocationLabel,
  stockAddressFromService,
} from "./stock-locations"
import type { LocationMappingResult } from "../contracts/admin-api"

export type LocationMappingAction = "link" | "unlink" | "create"

export interface PlanLocationMappingInput {
  action: LocationMappingAction
  /** The service's fulfilmentLocationId. */
  fulfilment_location_id: string
  /** link: the Medusa stock location to link it to. */
  stock_location_id?: string
}

export type LinkedAddress = StockAddressInput & { metadata: Record<string, unknown> }

/**
 * An existing address's link set or removed. Medusa merges an address's
 * metadata on update (other keys are kept) and removes a key given as "".
 */
export interface ExternalIdUpdate {
  stock_location_id: string
  address: { id: string; address_1: string; country_code: string; metadata: { external_location_id: string } }
  /** The external id set before, to put back if the run is undone. */
  previous_external_id: string | null
}

export interface LocationMappingPlan {
  /** The answer; for `create`, `stock_location` is filled from what was created. */
  result: LocationMappingResult
  update: ExternalIdUpdate | null
  /** A stock location without an address is given the service's, holding the link. */
  attach: { stock_location_id: string; address: LinkedAddress } | null
  /** A new stock location from the service location. */
  create: { name: string; address: LinkedAddress } | null
}

export interface MappingRefusal {
  refused: "not_found" | "not_allowed"
  message: string
}

export function planLocationMapping({
  action,
  fulfilment_location_id: id,
  stock_location_id,
  remote,
  stock,
}: PlanLocationMappingInput & {
  remote: ServiceFulfilmentLocation[]
  stock: StockLocationRow[]
}): LocationMappingPlan | MappingRefusal {
  const location = remote.find((l) => String(l.fulfilmentLocationId) === id)
  if (!location) {
    return { refused: "not_found", message: `The service has no fulfilment location ${id}` }
  }
  switch (action) {
    case "link":
      return planLink(location, remote, stock, stock_location_id ?? "")
    case "unlink":
      return planUnlink(location, stock)
    case "create":
      return planCreate(location, stock)
  }
}

/** The stock locations that name the service location (normally one). */
function linkedTo(location: ServiceFulfilmentLocation, stock: StockLocationRow[]): StockLocationRow[] {
  const external = location.externalLocationId
  return external ? stock.filter((s) => storeExternalId(s) === external) : []
}

function result(
  location: ServiceFulfilmentLocation,
  stockLocation: { id: string; name: string } | null,
  changed: boolean,
  message: string
): LocationMappingResult {
  return {
    fulfilment_location_id: String(location.fulfilmentLocationId),
    external_location_id: location.externalLocationId ?? "",
    stock_location: stockLocation ? { id: stockLocation.id, name: stockLocation.name } : null,
    changed,
    message,
  }
}

/** The link written on the stock location's address ("" removes it), or null when it has no complete address. */
function externalIdUpdate(location: StockLocationRow, externalId: string): ExternalIdUpdate | null {
  const address = location.address
  if (!address?.id || !address.address_1 || !address.country_code) {
    return null
  }
  return {
    stock_location_id: location.id,
    address: {
      id: address.id,
      address_1: address.address_1,
      country_code: address.country_code,
      metadata: { external_location_id: externalId },
    },
    previous_external_id: mappedExternalId(location),
  }
}

function refuse(message: string): MappingRefusal {
  return { refused: "not_allowed", message }
}

function planLink(
  location: ServiceFulfilmentLocation,
  remote: ServiceFulfilmentLocation[],
  stock: StockLocationRow[],
  stockLocationId: string
): LocationMappingPlan | MappingRefusal {
  const target = stock.find((s) => s.id === stockLocationId)
  if (!target) {
    return { refused: "not_found", message: `Stock location with id: ${stockLocationId} was not found` }
  }
  const refusal = linkRefusal(location)
  if (refusal) {
    return refuse(refusal)
  }
  const label = serviceLocationLabel(location)
  const external = location.externalLocationId!
  const linked = linkedTo(location, stock)
  if (linked.some((s) => s.id === target.id)) {
    return plan(result(location, target, false, `${target.name} is already linked to ${label}.`))
  }
  if (linked.length) {
    return refuse(`${label} is already linked to ${linked[0].name}: unlink it first.`)
  }
  // One stock location, one service location: moving a link silently would
  // take a store away from another service location's bookings.
  const current = storeExternalId(target)
  const other = remote.find((l) => l.externalLocationId && l.externalLocationId === current)
  if (other) {
    return refuse(`${target.name} is already linked to ${serviceLocationLabel(other)}: unlink it there first.`)
  }
  const stale = mappedExternalId(target)
  const replaced = stale ? ` It replaces the external id "${stale}", which no service location has.` : ""
  const message = `Linked ${label} to ${target.name}.${replaced}`
  if (target.address) {
    const update = externalIdUpdate(target, external)
    if (!update) {
      return refuse(
        `${target.name}'s address has no street line or country: complete it in Settings → Locations first.`
      )
    }
    return plan(result(location, target, true, message), { update })
  }
  const reading = stockAddressFromService(location.address)
  if ("missing" in reading) {
    return refuse(
      `${target.name} has no address to hold the link, and the service gives ${label} no usable address (it lacks ${reading.missing.join(" and ")}): add an address to ${target.name} in Settings → Locations first.`
    )
  }
  return plan(result(location, target, true, `${message} ${target.name} had no address and was given the service's.`), {
    attach: {
      stock_location_id: target.id,
      address: { ...reading.address, metadata: { external_location_id: external } },
    },
  })
}

function planUnlink(
  location: ServiceFulfilmentLocation,
  stock: StockLocationRow[]
): LocationMappingPlan | MappingRefusal {
  const label = serviceLocationLabel(location)
  const [linked, ...others] = linkedTo(location, stock)
  if (!linked) {
    return plan(result(location, null, false, `${label} is not linked to a stock location.`))
  }
  if (mappedExternalId(linked) !== location.externalLocationId) {
    return refuse(
      `${linked.name} is linked by its own id, which the service uses as ${label}'s externalLocationId: change the externalLocationId at the service to unlink it.`
    )
  }
  const update = externalIdUpdate(linked, "")
  if (!update) {
    return refuse(`${linked.name}'s address has no street line or country: complete it in Settings → Locations first.`)
  }
  const notes = [
    hasOption(linked, "pickup", "collection")
      ? ` Its click & collect option stays, unavailable until ${linked.name} is linked again.`
      : "",
    others.length ? ` ${others.length} more stock location(s) still carry its external id: unlink again.` : "",
  ].join("")
  return plan(result(location, others[0] ?? null, true, `Unlinked ${label} from ${linked.name}.${notes}`), { update })
}

function planCreate(
  location: ServiceFulfilmentLocation,
  stock: StockLocationRow[]
): LocationMappingPlan | MappingRefusal {
  const refusal = createRefusal(location)
  if (refusal) {
    return refuse(refusal)
  }
  const label = serviceLocationLabel(location)
  const [linked] = linkedTo(location, stock)
  if (linked) {
    return refuse(`${label} is already linked to ${linked.name}: unlink it first.`)
  }
  const reading = stockAddressFromService(location.address)
  if ("missing" in reading) {
    // createRefusal read the same address; kept for the type.
    return refuse(`The service gives ${label} no usable address.`)
  }
  const external = location.externalLocationId!
  const name = typeof location.name === "string" && location.name.trim() ? location.name.trim() : external
  return plan(result(location, null, true, `Created ${name} from ${label} and linked it.`), {
    create: { name, address: { ...reading.address, metadata: { external_location_id: external } } },
  })
}

function plan(
  answer: LocationMappingResult,
  change: Partial<Omit<LocationMappingPlan, "result">> = {}
): LocationMappingPlan {
  return { result: answer, update: null, attach: null, create: null, ...change }
}
