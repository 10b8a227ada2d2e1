import { Spinner } from "@medusajs/icons"
import { Text, clx } from "@medusajs/ui"
import type { KeyboardEvent, ReactNode } from "react"
import type { LastmileChoice } from "medusa-plugin-lastmile-storefront"
import { deliveryPrice } from "../lib/prices"
import { WRAP_ANYWHERE, shown } from "../lib/shown-text"

/** Where a choice stands in the step: on the cart, being put there, or checked while the shopper compares. */
export interface ChoiceState {
  selected: boolean
  pending: boolean
  /** Checked with the arrow keys, not chosen yet: Enter (or the step's button) chooses it. */
  draft: boolean
}

/** What the step does with a radio button's events (one radio group for every choice of the step). */
export interface ChoiceHandlers {
  onKeyDown: (event: KeyboardEvent<HTMLInputElement>, choice: LastmileChoice) => void
  onChange: (choice: LastmileChoice) => void
}

const TEST_IDS: Record<LastmileChoice["kind"], string> = {
  delivery: "delivery-choice",
  collection: "collection-choice",
}

/**
 * One choosable option: a native radio button whose label is the whole card, so one click anywhere chooses it. Its
 * accessible name is the choice as one sentence (`spokenText`: name, price, window, CO₂); what the card shows is for
 * the eye, and hidden from a screen reader, which has it all in that sentence.
 */
export function ChoiceCard({
  choice,
  selected,
  pending,
  draft,
  handlers,
  describedBy,
  children,
}: ChoiceState & {
  choice: LastmileChoice
  handlers: ChoiceHandlers
  /** The step's instructions (how the keyboard compares and chooses). */
  describedBy: string
  children?: ReactNode
}) {
  const id = `choice-${choice.key}`
  const title = shown(choice.kind === "delivery" ? choice.name : choice.storeName, 120)
  return (
    <label
      htmlFor={id}
      data-testid={TEST_IDS[choice.kind]}
      data-store={choice.kind === "collection" ? (choice.merchantLocationId ?? "") : undefined}
      data-selected={selected}
      data-pending={pending}
      data-draft={draft}
      className={clx(
        "lm-choice bg-ui-bg-base transition-fg flex cursor-pointer items-start gap-x-3 rounded-lg p-3",
        "hover:bg-ui-bg-base-hover",
        selected ? "shadow-borders-interactive-with-active" : "shadow-borders-base"
      )}
    >
      <input
        id={id}
        type="radio"
        name="lastmile-choice"
        className="lm-radio"
        value={choice.key}
        checked={selected || draft}
        aria-label={shown(choice.spokenText, 600)}
        aria-describedby={describedBy}
        onKeyDown={(event) => handlers.onKeyDown(event, choice)}
        onChange={() => handlers.onChange(choice)}
        data-testid="choice-radio"
      />
      <div className="flex min-w-0 flex-1 flex-col gap-y-1" style={WRAP_ANYWHERE} aria-hidden="true">
        <div className="flex items-start justify-between gap-x-2">
          <Text weight="plus" data-testid="choice-title">
            {title}
          </Text>
          <div className="flex items-center gap-x-2">
            {pending && <Spinner className="text-ui-fg-muted animate-spin" />}
            <Text weight="plus" data-testid="choice-price">
              {deliveryPrice(choice.amount, choice.currencyCode)}
            </Text>
          </div>
        </div>
        {children}
      </div>
    </label>
  )
}
