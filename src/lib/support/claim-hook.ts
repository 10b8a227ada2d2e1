/**
 * Registers the plugin's handler of a Medusa workflow hook unless the app already handles it, and then says what stops
 * working and what to do (decision 38).
 */

export interface PluginHook {
  /** The core workflow, as exported by `@medusajs/medusa/core-flows`. */
  workflow: string
  hook: string
  /** What the plugin cannot do without its handler, and what the app's own handler must do instead. */
  without: string
}

/** Runs `register` (one `workflow.hooks.<hook>(handler)` call); false when the hook already had a handler. */
export function claimHook(hook: PluginHook, register: () => void, logger: { error(message: string): void }): boolean {
  try {
    register()
    return true
  } catch {
    // The one way a registration fails: the hook already has its handler.
    logger.error(
      `medusa-plugin-lastmile: ${hook.workflow}'s ${hook.hook} hook already has a handler (your app's or another plugin's), ` +
        `and Medusa allows one, so the plugin's is not registered: ${hook.without}`
    )
    return false
  }
}
