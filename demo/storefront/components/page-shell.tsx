import { BuildingStorefront } from "@medusajs/icons"
import { Heading, Text } from "@medusajs/ui"
import type { ReactNode } from "react"
import { WRAP_ANYWHERE } from "../lib/shown-text"

/** The shop's header and a single centred column. */
export function PageShell({ children }: { children: ReactNode }) {
  return (
    <div className="bg-ui-bg-subtle min-h-screen">
      <header className="bg-ui-bg-base border-ui-border-base border-b">
        <div className="mx-auto flex max-w-3xl items-center gap-x-3 px-6 py-4">
          <BuildingStorefront className="text-ui-fg-subtle" />
          <div>
            <Heading level="h1">Lastmile demo shop</Heading>
            <Text size="small" className="text-ui-fg-subtle">
              Delivered tomorrow, or collected from a London store today.
            </Text>
          </div>
        </div>
      </header>
      <main className="mx-auto flex max-w-3xl flex-col gap-y-4 px-6 py-8" style={WRAP_ANYWHERE}>
        {children}
      </main>
    </div>
  )
}
