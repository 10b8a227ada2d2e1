import { Spinner } from "@medusajs/icons"
import { RadioGroup, Text, clx } from "@medusajs/ui"
import type { ReactNode } from "react"
import type { LastmileChoice } from "medusa-plugin-lastmile-storefront"
import { deliveryPrice } from "../lib/prices"

/** Where a choice stands in the step: chosen, being chosen, or waiting for another choice to settle. */
export interface ChoiceState {
  selected: boolean
  pending: boolean
  disabled: boolean
}

const TEST_IDS: Record<LastmileChoice["kind"], string> = {
  delivery: "delivery-choice",
  collection: "collection-choice",
}

/**
 * One choosable option, its title (the rate's name, or the store's) and its
 * price: the whole card is the radio button's label, so one click anywhere
 * chooses it.
 */
export function ChoiceCard({
  choice,
  selected,
  pending,
  disabled,
  children,
}: ChoiceState & {
  choice: LastmileChoice
  children?: ReactNode
}) {
  const id = `choice-${choice.key}`
  const title = choice.kind === "delivery" ? choice.name : choice.storeName
  return (
    <label
      htmlFor={id}
      data-testid={TEST_IDS[choice.kind]}
      data-store={choice.kind === "collection" ? (choice.merchantLocationId ?? "") : undefined}
      data-selected={selected}
      data-pending={pending}
      className={clx(
        "bg-ui-bg-base transition-fg flex cursor-pointer items-start gap-x-3 rounded-lg p-3",
        "hover:bg-ui-bg-base-hover",
        selected ? "shadow-borders-interactive-with-active" : "shadow-borders-base"
      )}
    >
      <RadioGroup.Item id={id} value={choice.key} disabled={disabled} aria-label={title} />
      <div className="flex min-w-0 flex-1 flex-col gap-y-1">
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
