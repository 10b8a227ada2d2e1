/**
 * The demo store's shipping setup: the plugin's one-click setup workflow, as
 * Settings → Lastmile runs it, and the default shipping profile.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { createShippingProfilesWorkflow } from "@medusajs/medusa/core-flows"
import { setupShippingOptionsWorkflow } from "../../src/workflows/setup-shipping-options"
import { defaultShippingProfileId } from "../../src/workflows/setup-shipping-options/steps/plan-shipping-setup"
import type { SetupReport } from "../../src/lib/lastmile/admin-api"

/** Runs the setup; idempotent: everything that exists is left alone. */
export async function setUpLastmileShipping(container: MedusaContainer): Promise<SetupReport> {
  const { result } = await setupShippingOptionsWorkflow(container).run({ input: {} })
  return result
}

/** The store's default shipping profile (Medusa's migrations create one), created when missing. */
export async function defaultShippingProfile(container: MedusaContainer): Promise<string> {
  const existing = await defaultShippingProfileId(container)
  if (existing) {
    return existing
  }
  const {
    result: [created],
  } = await createShippingProfilesWorkflow(container).run({ input: { data: [{ name: "Default", type: "default" }] } })
  return created.id
}
