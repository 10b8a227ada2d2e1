/**
 * A hook the app (or another plugin) handles first stays the app's, the app boots, and the log says what of the plugin
 * stops and what to do (decision 38). Medusa's workflows are process-wide: one boot per spec file.
 */
import { logger } from "@medusajs/framework/logger"
import { StepResponse } from "@medusajs/framework/workflows-sdk"
import * as flows from "@medusajs/medusa/core-flows"

describe("the hooks the plugin needs", () => {
  const errors: string[] = []

  beforeAll(() => {
    jest.spyOn(logger, "error").mockImplementation((message: unknown) => void errors.push(String(message)))
    // The app's own hook files, loaded before the plugin's.
    flows.createOrderFulfillmentWorkflow.hooks.fulfillmentCreated(async () => undefined)
    flows.listShippingOptionsForCartWithPricingWorkflow.hooks.setCalculatedShippingPricingContext(
      async () => new StepResponse({ loyalty_tier: "gold" })
    )
    jest.requireActual("../lastmile-fulfillment-created")
    jest.requireActual("../lastmile-pricing-context")
    jest.requireActual("../lastmile-shipping-method-validation")
  })

  afterAll(() => jest.restoreAllMocks())

  it("leaves a hook the app handles to the app, and says what the plugin loses and what to do", () => {
    expect(errors).toHaveLength(2)
    expect(errors[0]).toMatch(
      /^medusa-plugin-lastmile: createOrderFulfillmentWorkflow's fulfillmentCreated hook already has a handler/
    )
    expect(errors[0]).toContain("no lastmile fulfillment is booked")
    expect(errors[1]).toMatch(
      /listShippingOptionsForCartWithPricingWorkflow's setCalculatedShippingPricingContext hook/
    )
    expect(errors[1]).toContain("lastmilePricingContext(input.cart_id, container)")
  })

  it("holds every other hook it needs", () => {
    const others = [
      () => flows.addShippingMethodToCartWorkflow.hooks.validate(async () => undefined),
      () =>
        flows.calculateShippingOptionsPricesWorkflow.hooks.setCalculatedShippingPricingContext(async () => undefined),
      () => flows.fetchShippingOptionForOrderWorkflow.hooks.setCalculatedShippingPricingContext(async () => undefined),
      () => flows.maybeRefreshShippingMethodsWorkflow.hooks.setCalculatedShippingPricingContext(async () => undefined),
    ]
    for (const register of others) {
      expect(register).toThrow(/multiple hook handlers/)
    }
  })
})
