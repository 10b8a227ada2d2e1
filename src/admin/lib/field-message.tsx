/** A field's error beside it, in a polite live region, so a screen reader says it when it appears (decision 64). */
import { Text } from "@medusajs/ui"

export function FieldMessage({
  id,
  message,
  testId,
  kind,
}: {
  /** What the field names in `aria-describedby`. */
  id: string
  message: string | null | undefined
  testId: string
  kind?: string
}) {
  return (
    <div aria-live="polite">
      {message && (
        <Text size="small" id={id} className="text-ui-fg-error" data-testid={testId} data-kind={kind}>
          {message}
        </Text>
      )}
    </div>
  )
}
