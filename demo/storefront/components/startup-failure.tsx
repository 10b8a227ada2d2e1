import { Alert } from "@medusajs/ui"
import { PageShell } from "./page-shell"

/** The page could not learn where the demo's Medusa is. */
export function StartupFailure({ error }: { error: unknown }) {
  return (
    <PageShell>
      <Alert variant="error">
        The shop could not start: {error instanceof Error ? error.message : String(error)} Is `npm run demo` running?
      </Alert>
    </PageShell>
  )
}
