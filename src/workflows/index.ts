/** What the plugin exports under `medusa-plugin-lastmile/workflows`. */
export { lastmilePricingContext } from "./hooks/lastmile-pricing-context"
