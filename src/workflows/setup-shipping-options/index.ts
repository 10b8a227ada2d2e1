/**
 * One-click setup (decision 28): what Medusa needs for lastmile shipping options, which the stock dashboard cannot
 * create (it has no calculated pickup option), planned by a step from what exists, then created by Medusa's workflows.
 */
import {
  acquireLockStep,
  associateLocationsWithSalesChannelsStep,
  releaseLockStep,
  createFulfillmentSets,
  createLinksWorkflow,
  createServiceZonesWorkflow,
  createShippingOptionsWorkflow,
  createShippingProfilesWorkflow,
  useQueryGraphStep,
} from "@medusajs/medusa/core-flows"
import { randomUUID } from "node:crypto"
import type { FulfillmentSetDTO, FulfillmentWorkflow, LinkDefinition, ServiceZoneDTO } from "@medusajs/framework/types"
import { Modules } from "@medusajs/framework/utils"
import { type WorkflowData, WorkflowResponse, createWorkflow, transform, when } from "@medusajs/framework/workflows-sdk"
import type { SetupReport, SetupRequest } from "../../lib/contracts/admin-api"
import type { FulfillmentSetRef, ServiceZoneRef, ShippingSetupPlan } from "../../lib/store/shipping-setup"
import { planShippingSetupStep } from "./steps/plan-shipping-setup"

/** What the merchant chose; `{}` sets up what it can and puts the return option on the dispatch location. */
export type SetupShippingOptionsWorkflowInput = SetupRequest

export type SetupShippingOptionsWorkflowOutput = SetupReport

export const setupShippingOptionsWorkflowId = "lastmile-setup-shipping-options"

const STORE_RULES = [
  { attribute: "enabled_in_store", value: "true", operator: "eq" as const },
  { attribute: "is_return", value: "false", operator: "eq" as const },
]
const RETURN_RULES = [
  { attribute: "enabled_in_store", value: "true", operator: "eq" as const },
  { attribute: "is_return", value: "true", operator: "eq" as const },
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
function locationLinks(plan: ShippingSetupPlan & { provider_id: string }, sets: FulfillmentSetDTO[]): LinkDefinition[] {
  return [
    ...plan.provider_location_ids.map((locationId) => ({
      [Modules.STOCK_LOCATION]: { stock_location_id: locationId },
      [Modules.FULFILLMENT]: { fulfillment_provider_id: plan.provider_id },
    })),
    ...plan.fulfillment_sets.map((set, index) => ({
      [Modules.STOCK_LOCATION]: { stock_location_id: set.location_id },
      [Modules.FULFILLMENT]: { fulfillment_set_id: createdId(sets, index, "fulfillment set") },
    })),
  ]
}

/**
 * One setup or location-mapping change at a time: each plans from what
 * exists, so two at once (a double click) would both act on the same
 * snapshot and create or link twice.
 */
export const SETUP_LOCK = { key: "lastmile:setup", timeout: 30, ttl: 120, executeOnSubWorkflow: true }

/**
 * Takes the setup lock for this run, owned by it: should a run outlive the
 * lock's ttl, its release cannot free a later run's lock. Returns the owner
 * to release with.
 */
export function acquireSetupLock(): WorkflowData<string> {
  const ownerId = transform({}, () => `lastmile-setup:${randomUUID()}`)
  acquireLockStep(transform({ ownerId }, ({ ownerId }) => ({ ...SETUP_LOCK, ownerId })))
  return ownerId
}

export function releaseSetupLock(ownerId: WorkflowData<string>): void {
  releaseLockStep(
    transform({ ownerId }, ({ ownerId }) => ({ key: SETUP_LOCK.key, ownerId, executeOnSubWorkflow: true }))
  )
}

export const setupShippingOptionsWorkflow = createWorkflow(
  setupShippingOptionsWorkflowId,
  (input: SetupShippingOptionsWorkflowInput) => {
    const lockOwner = acquireSetupLock()
    // What the plan needs of Medusa besides the locations: the default shipping profile (Medusa's migrations create
    // one), the regions' currencies, and the sales channels ticked (none read when none are).
    const { data: defaultProfiles } = useQueryGraphStep({
      entity: "shipping_profile",
      fields: ["id"],
      filters: { type: "default" },
      pagination: { take: 1, order: { created_at: "ASC" } },
    }).config({ name: "lastmile-setup-read-default-profile" })
    const { data: regions } = useQueryGraphStep({ entity: "region", fields: ["currency_code"] }).config({
      name: "lastmile-setup-read-regions",
    })
    const channelIds = transform({ input }, ({ input }) => [...new Set(input.sales_channel_ids ?? [])])
    const channels = when(
      "lastmile-setup-when-channels-ticked",
      { channelIds },
      ({ channelIds }) => !!channelIds.length
    ).then(() =>
      useQueryGraphStep({ entity: "sales_channel", fields: ["id", "name"], filters: { id: channelIds } }).config({
        name: "lastmile-setup-read-sales-channels",
      })
    )
    // Planned from what exists (so running it twice creates nothing), then created in dependency order (profile,
    // fulfillment sets, provider links, sales-channel links, zones, options), each step with its compensation.
    const plan = planShippingSetupStep(
      transform({ input, defaultProfiles, regions, channels }, ({ input, defaultProfiles, regions, channels }) => ({
        request: input,
        shipping_profile_id: defaultProfiles[0]?.id ?? null,
        regions,
        sales_channels: channels?.data ?? [],
      }))
    )

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
    // Medusa's own step of linkSalesChannelsToStockLocationWorkflow, for many locations at once.
    associateLocationsWithSalesChannelsStep(transform({ plan }, ({ plan }) => ({ links: plan.sales_channel_links })))

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
      return plan.shipping_options.map((option): FulfillmentWorkflow.CreateShippingOptionsWorkflowInput => {
        const common = {
          name: option.name,
          provider_id: plan.provider_id,
          service_zone_id: zoneId(option.zone, zones),
          shipping_profile_id: profileId,
          type: option.type,
          data: option.data,
        }
        return option.prices
          ? { ...common, price_type: "flat", prices: option.prices, rules: RETURN_RULES }
          : { ...common, price_type: "calculated", rules: STORE_RULES }
      })
    })
    when("lastmile-setup-when-options-planned", { optionsInput }, ({ optionsInput }) => !!optionsInput.length).then(
      () => {
        createShippingOptionsWorkflow.runAsStep({ input: optionsInput })
      }
    )

    releaseSetupLock(lockOwner)
    return new WorkflowResponse(transform({ plan }, ({ plan }) => plan.report))
  }
)
