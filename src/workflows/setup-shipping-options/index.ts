/**
 * One-click setup: what Medusa needs for lastmile shipping options, which the
 * stock dashboard cannot create (it has no calculated pickup option). A step
 * plans everything from what exists; Medusa's own workflows and steps then
 * create it in dependency order (profile, fulfillment sets, links, zones,
 * options), each with its compensation, so a failure half-way leaves nothing
 * half-made. Running it twice creates nothing.
 */
import {
  acquireLockStep,
  releaseLockStep,
  createFulfillmentSets,
  createLinksWorkflow,
  createServiceZonesWorkflow,
  createShippingOptionsWorkflow,
  createShippingProfilesWorkflow,
} from "@medusajs/medusa/core-flows"
import type { FulfillmentSetDTO, LinkDefinition, ServiceZoneDTO } from "@medusajs/framework/types"
import { Modules } from "@medusajs/framework/utils"
import { WorkflowResponse, createWorkflow, transform, when } from "@medusajs/framework/workflows-sdk"
import { LASTMILE_PROVIDER_ID } from "../../lib/lastmile/fulfillment-options"
import type { SetupReport } from "../../lib/lastmile/admin-api"
import {
  type FulfillmentSetRef,
  type ServiceZoneRef,
  type ShippingSetupPlan,
  planShippingSetupStep,
} from "./steps/plan-shipping-setup"

/** The setup takes no input: it reads the service and the store. */
export type SetupShippingOptionsWorkflowInput = Record<string, never>

export type SetupShippingOptionsWorkflowOutput = SetupReport

export const setupShippingOptionsWorkflowId = "lastmile-setup-shipping-options"

const STORE_RULES = [
  { attribute: "enabled_in_store", value: "true", operator: "eq" as const },
  { attribute: "is_return", value: "false", operator: "eq" as const },
]

function createdId<T extends { id: string }>(created: T[] | undefined, index: number, what: string): string {
  const row = created?.[index]
  if (!row) {
    // Medusa returns what it creates in the order it was given; anything else is a bug.
    throw new Error(`lastmile: the ${what} planned at ${index} was not created`)
  }
  return row.id
}

function setId(ref: FulfillmentSetRef, created: FulfillmentSetDTO[] | undefined): string {
  return "id" in ref ? ref.id : createdId(created, ref.new_set, "fulfillment set")
}

function zoneId(ref: ServiceZoneRef, created: ServiceZoneDTO[] | undefined): string {
  return "id" in ref ? ref.id : createdId(created, ref.new_zone, "service zone")
}

/** The provider on each location, and each new fulfillment set on its location. */
function locationLinks(plan: ShippingSetupPlan, sets: FulfillmentSetDTO[]): LinkDefinition[] {
  return [
    ...plan.provider_location_ids.map((locationId) => ({
      [Modules.STOCK_LOCATION]: { stock_location_id: locationId },
      [Modules.FULFILLMENT]: { fulfillment_provider_id: LASTMILE_PROVIDER_ID },
    })),
    ...plan.fulfillment_sets.map((set, index) => ({
      [Modules.STOCK_LOCATION]: { stock_location_id: set.location_id },
      [Modules.FULFILLMENT]: { fulfillment_set_id: createdId(sets, index, "fulfillment set") },
    })),
  ]
}

const SETUP_LOCK_KEY = "lastmile:setup"

export const setupShippingOptionsWorkflow = createWorkflow(
  setupShippingOptionsWorkflowId,
  (_input: SetupShippingOptionsWorkflowInput) => {
    // Two runs at once (a double click) would both plan from the same snapshot and create twice.
    acquireLockStep({ key: SETUP_LOCK_KEY, timeout: 30, ttl: 120, executeOnSubWorkflow: true })
    const plan = planShippingSetupStep()

    const profiles = when(
      "lastmile-setup-when-profile-missing",
      { plan },
      ({ plan }) => !plan.shipping_profile_id
    ).then(() => createShippingProfilesWorkflow.runAsStep({ input: { data: [{ name: "Default", type: "default" }] } }))

    const setsInput = transform({ plan }, ({ plan }) => plan.fulfillment_sets.map(({ name, type }) => ({ name, type })))
    const sets = createFulfillmentSets(setsInput)

    // Before any option: Medusa refuses an option whose provider is not enabled on its set's location.
    const links = transform({ plan, sets }, ({ plan, sets }) => locationLinks(plan, sets))
    createLinksWorkflow.runAsStep({ input: links })

    const zonesInput = transform({ plan, sets }, ({ plan, sets }) => ({
      data: plan.service_zones.map((zone) => ({
        fulfillment_set_id: setId(zone.set, sets),
        name: zone.name,
        geo_zones: [{ type: "country" as const, country_code: zone.country_code }],
      })),
    }))
    const zones = when(
      "lastmile-setup-when-zones-planned",
      { zonesInput },
      ({ zonesInput }) => !!zonesInput.data.length
    ).then(() => createServiceZonesWorkflow.runAsStep({ input: zonesInput }))

    const optionsInput = transform({ plan, zones, profiles }, ({ plan, zones, profiles }) => {
      const profileId = plan.shipping_profile_id ?? createdId(profiles, 0, "shipping profile")
      return plan.shipping_options.map((option) => ({
        name: option.name,
        price_type: "calculated" as const,
        provider_id: LASTMILE_PROVIDER_ID,
        service_zone_id: zoneId(option.zone, zones),
        shipping_profile_id: profileId,
        type: option.type,
        data: option.data,
        rules: STORE_RULES,
      }))
    })
    when("lastmile-setup-when-options-planned", { optionsInput }, ({ optionsInput }) => !!optionsInput.length).then(
      () => {
        createShippingOptionsWorkflow.runAsStep({ input: optionsInput })
      }
    )

    releaseLockStep({ key: SETUP_LOCK_KEY, executeOnSubWorkflow: true })
    return new WorkflowResponse(transform({ plan }, ({ plan }) => plan.report))
  }
)
