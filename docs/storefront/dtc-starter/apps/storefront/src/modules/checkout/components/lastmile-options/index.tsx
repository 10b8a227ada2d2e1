"use client"

import { chooseLastmileOption, setLastmileNear } from "@lib/data/lastmile"
import { Text, clx } from "@modules/common/components/ui"
import {
  DELIVERY_NOTE_TEXT,
  type LastmileChoice,
  type LastmileDeliveryStep,
  type LastmileShopperAction,
  chosenUnavailableText,
  cleanDeliveryNote,
  deliveryNoteCounterText,
  deliveryNoteProblem,
  listStores,
  requestShopperPosition,
  storeAddressUnlessIn,
} from "medusa-plugin-lastmile-storefront"
import { type KeyboardEvent, useEffect, useRef, useState } from "react"

type LastmileOptionsProps = {
  cartId: string
  step: LastmileDeliveryStep
  /** The note to the courier the cart's delivery holds (`readChosenMethod(cart)?.deliveryNote`). */
  savedNote?: string | null
  onEditAddress: () => void
  /** Renders the step again on the server (`router.refresh()`): "Try again", and the stores once near the shopper. */
  onRetry: () => void
  /** Told when a choice is on the cart, so the page's other lists let go of theirs. */
  onChosen: () => void
  /** Told the plugin's sentence when Medusa refuses a choice, and null when a new one starts. */
  onError: (error: string | null) => void
}

const INSTRUCTIONS_ID = "lastmile-choice-instructions"
const NOTE_ID = "lastmile-courier-note"
const STORES_ID = "lastmile-stores"

/**
 * Every lastmile choice in one radio group of native radio buttons: delivery rates, then stores, then what cannot be
 * offered, each reason once. Each row is one control, named by the choice read as one sentence (its price, window and
 * CO₂). A click or Space chooses; the arrow keys only move through the choices, and Enter (or the button that appears)
 * chooses the one checked, so the cart changes once, not at every key press. A delivery carries the shopper's note to
 * the courier. A live region says what the step offers whenever the server renders a new step. The stores show the
 * nearest five (and the chosen one), the rest behind "Show all stores"; "Use my location" asks the browser for the
 * shopper's position only when pressed, and the server renders the stores nearest it.
 */
export default function LastmileOptions({
  cartId,
  step,
  savedNote,
  onEditAddress,
  onRetry,
  onChosen,
  onError,
}: LastmileOptionsProps) {
  const [pendingKey, setPendingKey] = useState<string | null>(null)
  const [draft, setDraft] = useState<string | null>(null)
  const [note, setNote] = useState(savedNote ?? "")
  const [showAllStores, setShowAllStores] = useState(false)
  const [locating, setLocating] = useState(false)
  const [storesSaid, setStoresSaid] = useState<string | null>(null)
  const browsing = useRef(false)
  const choices: LastmileChoice[] = [...step.delivery, ...step.collection]
  const committed = pendingKey ?? step.selectedKey
  const checked = draft ?? committed
  const { verdict, groups } = step.reasons
  const links = { onEditAddress, onRetry }
  useEffect(() => setDraft(null), [step])
  useEffect(() => setNote(savedNote ?? ""), [savedNote])

  const chosen = choices.find((c) => c.key === committed)
  const drafted = draft !== null && draft !== committed ? choices.find((c) => c.key === draft) : undefined
  const noteDirty = cleanDeliveryNote(note) !== (savedNote ?? "")
  const noteProblem = deliveryNoteProblem(note)
  const noteToSave = !drafted && noteDirty && chosen?.kind === "delivery"
  // The nearest five, and any store chosen, on its way or reached with the arrow keys, wherever it is.
  const keep = [pendingKey, draft]
  const stores = listStores(step, { showAll: showAllStores, keep })
  const collapsible = listStores(step, { keep }).more > 0

  const locate = async () => {
    setLocating(true)
    // The browser asks the shopper now; the position goes to the server rounded to about 100 m, kept in a cookie.
    const position = await requestShopperPosition()
    if (position) {
      await setLastmileNear(position)
      onRetry()
    }
    setLocating(false)
    setStoresSaid(position ? "Showing the stores nearest you first." : "Showing stores by your postcode instead.")
  }
  const toggleStores = () => {
    setShowAllStores(!showAllStores)
    setStoresSaid(listStores(step, { showAll: !showAllStores, keep }).summary)
  }

  const choose = async (choice: LastmileChoice | undefined) => {
    if (!choice || pendingKey !== null) {
      return
    }
    if (choice.kind === "delivery" && noteProblem) {
      document.getElementById(NOTE_ID)?.focus()
      return
    }
    setDraft(null)
    if (choice.key === step.selectedKey && !(choice.kind === "delivery" && noteDirty)) {
      return
    }
    onError(null)
    setPendingKey(choice.key)
    const { error } = await chooseLastmileOption(cartId, choice, choice.kind === "delivery" ? note : undefined)
    setPendingKey(null)
    if (error) {
      onError(error)
    } else {
      onChosen()
    }
  }
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>, choice: LastmileChoice) => {
    if (event.key.startsWith("Arrow")) {
      browsing.current = true
    } else if (event.key === "Enter" || (event.key === " " && checked === choice.key)) {
      event.preventDefault()
      void choose(choice)
    }
  }
  const onChange = (choice: LastmileChoice) => {
    if (browsing.current) {
      browsing.current = false
      setDraft(choice.key)
    } else {
      void choose(choice)
    }
  }
  const row = (choice: LastmileChoice) => (
    <ChoiceRow
      key={choice.key}
      choice={choice}
      checked={choice.key === checked}
      chosen={choice.key === committed}
      pending={choice.key === pendingKey}
      onKeyDown={onKeyDown}
      onChange={onChange}
    />
  )

  return (
    <div data-testid="lastmile-options">
      <p role="status" className="sr-only" data-testid="lastmile-announcement">
        {step.announcement}
      </p>
      {verdict && verdict.kind !== "some_unavailable" && (
        <Text className="txt-medium text-ui-fg-subtle mb-4" data-testid="lastmile-verdict">
          {verdict.text} <ActionLink action={verdict.action} text={verdict.actionText} {...links} />
        </Text>
      )}
      {step.lostChoice && (
        <Text className="txt-medium text-ui-fg-base mb-4" data-testid="lastmile-lost-choice">
          {step.lostChoice.reason}
        </Text>
      )}
      {step.chosenUnavailable && (
        <Text className="txt-medium text-ui-fg-subtle mb-4" data-testid="lastmile-chosen-unavailable">
          {chosenUnavailableText(step.chosenUnavailable)}
        </Text>
      )}

      {choices.length > 0 && (
        <form
          aria-label="Delivery and collection"
          aria-busy={pendingKey !== null}
          onSubmit={(event) => {
            event.preventDefault()
            void choose(drafted ?? (noteToSave ? chosen : undefined))
          }}
        >
          <Text className="txt-small text-ui-fg-subtle mb-2" id={INSTRUCTIONS_ID}>
            Click an option to choose it. With the keyboard, move through the options with the arrow keys, then press
            Enter.
          </Text>
          {step.delivery.length > 0 && (
            <fieldset>
              <legend className="block font-medium txt-medium text-ui-fg-base mb-2">Delivery</legend>
              {step.delivery.map(row)}
              <CourierNote value={note} onChange={setNote} dirty={noteDirty} problem={noteProblem} />
            </fieldset>
          )}
          {step.collection.length > 0 && (
            <fieldset data-testid="lastmile-stores" data-shown={stores.shown.length}>
              <legend className="block font-medium txt-medium text-ui-fg-base mt-6 mb-2">Collect from a store</legend>
              <div className="flex items-center justify-between gap-x-4 mb-2">
                <Text className="txt-small text-ui-fg-subtle">
                  {stores.byDistance ? "Nearest you first." : "Nearest your postcode first."}
                </Text>
                <button
                  type="button"
                  onClick={() => void locate()}
                  disabled={locating}
                  className="min-h-[24px] px-2 txt-small text-ui-fg-base underline"
                  data-testid="lastmile-use-my-location"
                >
                  {locating ? "Finding you…" : "Use my location"}
                </button>
              </div>
              <p role="status" className="txt-small text-ui-fg-subtle mb-2" data-testid="lastmile-stores-status">
                {storesSaid}
              </p>
              <div id={STORES_ID}>{stores.shown.map(row)}</div>
              {collapsible && (
                <button
                  type="button"
                  onClick={toggleStores}
                  aria-controls={STORES_ID}
                  className="min-h-[24px] txt-medium text-ui-fg-base underline"
                  data-testid="lastmile-show-all-stores"
                >
                  {stores.showAllText ?? "Show the nearest stores only"}
                </button>
              )}
            </fieldset>
          )}
          {(drafted || noteToSave) && (
            <button
              type="submit"
              className="mt-2 min-h-[32px] rounded-rounded px-4 bg-ui-button-inverted text-ui-fg-on-inverted"
              data-testid="lastmile-confirm"
            >
              {drafted ? `Choose ${drafted.name}` : "Save your note for the courier"}
            </button>
          )}
        </form>
      )}

      {groups.length > 0 && (
        <div className="mt-4 flex flex-col gap-y-2 text-small-regular" data-testid="lastmile-unavailable">
          {verdict?.kind === "some_unavailable" && <span className="text-ui-fg-subtle">{verdict.text}</span>}
          {groups.map((group) => (
            <p key={group.reason} className="text-ui-fg-muted" data-testid="lastmile-unavailable-reason">
              <span className="text-ui-fg-subtle">{group.names.join(", ")}</span>: {group.reason}{" "}
              {group.action !== verdict?.action && (
                <ActionLink action={group.action} text={group.actionText} {...links} />
              )}
            </p>
          ))}
        </div>
      )}
    </div>
  )
}

/**
 * One row, a delivery rate's or a store's, and one control: a native radio button whose label is the whole row. Its
 * name is the choice as one sentence (`spokenText`); the row's parts (the name, what tells it apart, the price the
 * cart is charged with its note when it is not a live one) are for the eye.
 */
function ChoiceRow({
  choice,
  checked,
  chosen,
  pending,
  onKeyDown,
  onChange,
}: {
  choice: LastmileChoice
  checked: boolean
  chosen: boolean
  /** On its way to the cart. */
  pending: boolean
  onKeyDown: (event: KeyboardEvent<HTMLInputElement>, choice: LastmileChoice) => void
  onChange: (choice: LastmileChoice) => void
}) {
  const lines =
    choice.kind === "delivery"
      ? [choice.windowText, choice.description, choice.co2Text && `Saves ${choice.co2Text}`]
      : [
          choice.distanceText && `${choice.distanceText} away`,
          storeAddressUnlessIn(choice.address, choice.description),
          choice.description,
        ]
  // A store's own words for collecting there are the row's description (its name says the distance, not these).
  const instructions = choice.kind === "collection" ? choice.instructions : null
  const instructionsId = `lastmile-instructions-${choice.key}`
  return (
    <label
      data-testid={choice.kind === "delivery" ? "lastmile-delivery-rate" : "lastmile-store"}
      data-chosen={chosen}
      data-pending={pending}
      className={clx(
        "flex items-center justify-between text-small-regular cursor-pointer py-4 border rounded-rounded px-8 mb-2 hover:shadow-borders-interactive-with-active has-[:focus-visible]:shadow-borders-interactive-with-focus",
        { "border-ui-border-interactive": checked }
      )}
    >
      <span className="flex items-start gap-x-4">
        <input
          type="radio"
          name="lastmile-choice"
          value={choice.key}
          checked={checked}
          aria-label={choice.spokenText}
          aria-describedby={instructions ? `${instructionsId} ${INSTRUCTIONS_ID}` : INSTRUCTIONS_ID}
          onKeyDown={(event) => onKeyDown(event, choice)}
          onChange={() => onChange(choice)}
          className="h-6 w-6 shrink-0 accent-ui-fg-interactive"
        />
        <span className="flex flex-col" aria-hidden="true">
          <span className="text-base-regular">{choice.name}</span>
          {lines.map((line, index) =>
            line ? (
              <span key={index} className={index === 0 ? "text-ui-fg-subtle" : "text-ui-fg-muted"}>
                {line}
              </span>
            ) : null
          )}
          {instructions && (
            <span id={instructionsId} className="text-ui-fg-subtle" data-testid="lastmile-store-instructions">
              From the store: {instructions}
            </span>
          )}
        </span>
      </span>
      <span className="flex flex-col items-end justify-self-end text-ui-fg-base" aria-hidden="true">
        {/* The price as the cart's summary writes it ("£0.00", never "Free"): one price on screen. */}
        {choice.priceText}
        {/* "Estimated price" (the merchant's fallback), or "Price as chosen" (kept through a moment's outage) */}
        {choice.priceNote && <span className="txt-small text-ui-fg-muted">{choice.priceNote}</span>}
      </span>
    </label>
  )
}

/** The shopper's note to the courier: label, hint, counter (read out once the shopper pauses), and its error beside it. */
function CourierNote({
  value,
  onChange,
  dirty,
  problem,
}: {
  value: string
  onChange: (value: string) => void
  dirty: boolean
  problem: string | null
}) {
  const counter = deliveryNoteCounterText(value)
  const [spoken, setSpoken] = useState(counter)
  useEffect(() => {
    const pause = setTimeout(() => setSpoken(counter), 800)
    return () => clearTimeout(pause)
  }, [counter])
  return (
    <div className="flex flex-col gap-y-1 mt-2 mb-4" data-testid="lastmile-courier-note">
      <label htmlFor={NOTE_ID} className="txt-medium-plus text-ui-fg-base">
        {DELIVERY_NOTE_TEXT.label}
      </label>
      <span id={`${NOTE_ID}-hint`} className="txt-small text-ui-fg-subtle">
        {DELIVERY_NOTE_TEXT.hint}
      </span>
      <textarea
        id={NOTE_ID}
        name="delivery_note"
        rows={3}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        aria-invalid={problem ? true : undefined}
        aria-describedby={`${NOTE_ID}-hint ${NOTE_ID}-counter${problem ? ` ${NOTE_ID}-error` : ""}`}
        className="w-full rounded-rounded border border-ui-border-base px-4 py-2 txt-medium"
      />
      <span id={`${NOTE_ID}-counter`} className={clx("txt-small", problem ? "text-ui-fg-error" : "text-ui-fg-subtle")}>
        {counter}
        {dirty ? " · not saved yet" : ""}
      </span>
      <span className="sr-only" aria-live="polite">
        {spoken}
      </span>
      {problem && (
        <span id={`${NOTE_ID}-error`} role="alert" className="txt-small text-ui-fg-error">
          {problem}
        </span>
      )}
    </div>
  )
}

/** What the shopper can do about a reason: the address step for a detail to fix, the server for another try. */
function ActionLink({
  action,
  text,
  onEditAddress,
  onRetry,
}: {
  action: LastmileShopperAction | null
  text: string | null
  onEditAddress: () => void
  /** Renders the step again on the server (`router.refresh()`): "Try again", and the stores once near the shopper. */
  onRetry: () => void
}) {
  if (!action || action === "choose_another") {
    return null
  }
  return (
    <button
      type="button"
      onClick={action === "try_later" ? onRetry : onEditAddress}
      className="text-ui-fg-interactive min-h-[24px]"
      data-testid="lastmile-action"
    >
      {text}
    </button>
  )
}
