import { Label, Text, Textarea, clx } from "@medusajs/ui"
import { useEffect, useState } from "react"
import { DELIVERY_NOTE_TEXT, deliveryNoteCounterText, deliveryNoteProblem } from "medusa-plugin-lastmile-storefront"

export const COURIER_NOTE_ID = "courier-note"

/**
 * The shopper's note to the courier, sent with a delivery choice (`data.delivery_note`): its label, the hint of what
 * helps, a counter, and the error beside the field when it is too long. The counter is read to a screen reader once
 * the shopper pauses, not at every key.
 */
export function CourierNote({
  value,
  onChange,
  dirty,
}: {
  value: string
  onChange: (value: string) => void
  /** The field differs from the note the cart's delivery holds: choosing (or the step's button) saves it. */
  dirty: boolean
}) {
  const counter = deliveryNoteCounterText(value)
  const problem = deliveryNoteProblem(value)
  const [spoken, setSpoken] = useState(counter)
  useEffect(() => {
    const pause = setTimeout(() => setSpoken(counter), 800)
    return () => clearTimeout(pause)
  }, [counter])
  const hint = `${COURIER_NOTE_ID}-hint`
  const count = `${COURIER_NOTE_ID}-counter`
  const error = `${COURIER_NOTE_ID}-error`
  return (
    <div className="flex flex-col gap-y-1" data-testid="courier-note">
      <Label htmlFor={COURIER_NOTE_ID} size="small" weight="plus">
        {DELIVERY_NOTE_TEXT.label}
      </Label>
      <Text size="small" className="text-ui-fg-subtle" id={hint}>
        {DELIVERY_NOTE_TEXT.hint} The courier reads it; it is not printed on the parcel.
      </Text>
      <Textarea
        id={COURIER_NOTE_ID}
        name="delivery_note"
        className="lm-note"
        value={value}
        rows={3}
        aria-describedby={`${hint} ${count}${problem ? ` ${error}` : ""}`}
        aria-invalid={problem ? true : undefined}
        onChange={(event) => onChange(event.target.value)}
        data-testid="courier-note-input"
      />
      <Text
        size="small"
        id={count}
        className={clx(problem ? "text-ui-fg-error" : "text-ui-fg-subtle")}
        data-testid="courier-note-counter"
      >
        {counter}
        {dirty ? " · not saved yet" : ""}
      </Text>
      <p className="sr-only" aria-live="polite">
        {spoken}
      </p>
      {problem && (
        <Text size="small" className="text-ui-fg-error" id={error} role="alert" data-testid="courier-note-error">
          {problem}
        </Text>
      )}
    </div>
  )
}
