/** `medusa-plugin-lastmile/storefront`: the storefront package (`packages/storefront`), re-exported (decision 34). */
export * from "medusa-plugin-lastmile-storefront"
