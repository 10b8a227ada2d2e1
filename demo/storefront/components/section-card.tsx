import { Container, Heading, Text } from "@medusajs/ui"
import type { ReactNode } from "react"

/** One numbered step of the checkout. */
export function SectionCard({
  number,
  title,
  hint,
  testId,
  children,
}: {
  number: number
  title: string
  hint?: string
  testId: string
  children: ReactNode
}) {
  return (
    <Container id={testId} className="flex flex-col gap-y-4 px-6 py-4" data-testid={testId}>
      <div className="flex flex-col gap-y-1">
        <Heading level="h2">
          {number}. {title}
        </Heading>
        {hint && (
          <Text size="small" className="text-ui-fg-subtle">
            {hint}
          </Text>
        )}
      </div>
      {children}
    </Container>
  )
}
