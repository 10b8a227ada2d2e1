import { Alert, Button, Text } from "@medusajs/ui"
import { type FormEvent, type KeyboardEvent, useEffect, useRef, useState } from "react"
import {
  type LastmileChoice,
  type LastmileDeliveryStep,
  type LastmileShopperAction,
  cleanDeliveryNote,
  deliveryNoteProblem,
} from "medusa-plugin-lastmile-storefront"
import type { ChoiceHandlers } from "./choice-card"
import { COURIER_NOTE_ID, CourierNote } from "./courier-note"
import { DeliveryChoiceCard } from "./delivery-choice-card"
import { SectionCard } from "./section-card"
import { StepNotices } from "./step-notices"
import { StoreChoices } from "./store-choices"
import { UnavailableOptions } from "./unavailable-options"
import { shown } from "../lib/shown-text"

const INSTRUCTIONS_ID = "choice-instructions"

/**
 * The delivery step as `createLastmileStorefront(sdk).loadDeliveryStep` shapes it: every delivery rate, every store
 * that can offer collection, and what cannot be offered, each reason once. One radio group: a click (or Space) on a
 * choice chooses it; the arrow keys only compare, and Enter (or the button below) chooses the one checked, so the cart
 * changes once, not at every key. A live region says what the step offers whenever it changes. The stores show the
 * nearest five first, the rest behind "Show all stores", nearest the shopper once they use their location.
 */
export function DeliverySection({
  step,
  pendingKey,
  error,
  savedNote,
  onChoose,
  onAction,
  onUseMyLocation,
}: {
  step: LastmileDeliveryStep
  pendingKey: string | null
  error: string | null
  /** The note to the courier the cart's delivery holds ("" without one). */
  savedNote: string
  onChoose: (choice: LastmileChoice, deliveryNote: string) => void
  /** What the shopper can do about a reason: edit a detail, or try again. */
  onAction: (action: LastmileShopperAction) => void
  /** "Use my location": asks the browser, then reloads the step; "near" when it gave a position. */
  onUseMyLocation: () => Promise<"near" | "postcode">
}) {
  const choices: LastmileChoice[] = [...step.delivery, ...step.collection]
  const committed = pendingKey ?? step.selectedKey
  const [draft, setDraft] = useState<string | null>(null)
  const [note, setNote] = useState(savedNote)
  const browsing = useRef(false)
  // A new step (after a choice, an address, a retry) shows what the cart holds; the note field keeps what is typed.
  useEffect(() => setDraft(null), [step])
  useEffect(() => setNote(savedNote), [savedNote])

  const checked = draft ?? committed
  const chosen = choices.find((c) => c.key === committed)
  const drafted = draft !== null && draft !== committed ? choices.find((c) => c.key === draft) : undefined
  const noteDirty = cleanDeliveryNote(note) !== savedNote
  const noteProblem = deliveryNoteProblem(note)
  // The note goes with a delivery: saving it alone re-chooses the delivery the cart holds.
  const noteToSave = !drafted && noteDirty && chosen?.kind === "delivery"

  const commit = (choice: LastmileChoice | undefined) => {
    if (!choice || pendingKey !== null) {
      return
    }
    if (choice.kind === "delivery" && noteProblem) {
      document.getElementById(COURIER_NOTE_ID)?.focus()
      return
    }
    setDraft(null)
    if (choice.key !== step.selectedKey || (choice.kind === "delivery" && noteDirty)) {
      onChoose(choice, note)
    }
  }
  const handlers: ChoiceHandlers = {
    onKeyDown: (event: KeyboardEvent<HTMLInputElement>, choice) => {
      if (event.key.startsWith("Arrow")) {
        browsing.current = true
      } else if (event.key === "Enter" || (event.key === " " && checked === choice.key)) {
        event.preventDefault()
        commit(choice)
      }
    },
    onChange: (choice) => {
      if (browsing.current) {
        browsing.current = false
        setDraft(choice.key)
      } else {
        commit(choice)
      }
    },
  }
  const submit = (event: FormEvent) => {
    event.preventDefault()
    commit(drafted ?? (noteToSave ? chosen : undefined))
  }
  const state = (key: string) => ({
    selected: committed === key,
    pending: pendingKey === key,
    draft: draft === key && committed !== key,
  })

  return (
    <SectionCard number={3} title="Delivery or collection" testId="delivery-section">
      <p role="status" className="sr-only" data-testid="step-announcement">
        {shown(step.announcement, 2000)}
      </p>
      <StepNotices step={step} onAction={onAction} />
      {choices.length > 0 && (
        <form className="flex flex-col gap-y-4" onSubmit={submit} aria-label="Delivery or collection">
          <Text size="small" className="text-ui-fg-subtle" id={INSTRUCTIONS_ID}>
            Click an option to choose it. With the keyboard, compare with the arrow keys, then press Enter.
          </Text>
          {step.delivery.length > 0 && (
            <fieldset className="flex flex-col gap-y-2">
              <legend className="txt-small-plus text-ui-fg-subtle mb-2">Delivered to your door</legend>
              {step.delivery.map((choice) => (
                <DeliveryChoiceCard
                  key={choice.key}
                  choice={choice}
                  handlers={handlers}
                  describedBy={INSTRUCTIONS_ID}
                  {...state(choice.key)}
                />
              ))}
              <CourierNote value={note} onChange={setNote} dirty={noteDirty} />
            </fieldset>
          )}
          {step.collection.length > 0 && (
            <StoreChoices
              step={step}
              state={state}
              handlers={handlers}
              describedBy={INSTRUCTIONS_ID}
              keep={[pendingKey, draft]}
              onUseMyLocation={onUseMyLocation}
            />
          )}
          {error && (
            <Alert variant="error" data-testid="choose-error">
              <span role="alert">{error}</span>
            </Alert>
          )}
          {(drafted || noteToSave) && (
            <div className="flex justify-end">
              <Button type="submit" isLoading={pendingKey !== null} data-testid="confirm-choice">
                {drafted ? `Choose ${shown(drafted.name, 80)}` : "Save your note for the courier"}
              </Button>
            </div>
          )}
        </form>
      )}
      {choices.length === 0 && error && (
        <Alert variant="error" data-testid="choose-error">
          <span role="alert">{error}</span>
        </Alert>
      )}
      <UnavailableOptions reasons={step.reasons} onAction={onAction} />
    </SectionCard>
  )
}
