/**
 * `medusa-plugin-lastmile/storefront`: the storefront helpers and the JSON
 * types of the plugin's store routes, as the package
 * `medusa-plugin-lastmile-storefront` ships them (this repository's
 * `packages/storefront`). A storefront installs that package on its own,
 * without the plugin's server peers; this entry keeps earlier imports working.
 */
export * from "medusa-plugin-lastmile-storefront"
