"use client"

import { Radio, RadioGroup } from "@headlessui/react"
import { chooseLastmileOption } from "@lib/data/lastmile"
import MedusaRadio from "@modules/common/components/radio"
import { Text, clx } from "@modules/common/components/ui"
import {
  type LastmileChoice,
  type LastmileDeliveryStep,
  type LastmileShopperAction,
  storeAddressUnlessIn,
} from "medusa-plugin-lastmile-storefront"
import { useState } from "react"

type LastmileOptionsProps = {
  cartId: string
  step: LastmileDeliveryStep
  onEditAddress: () => void
  onRetry: () => void
  /** Told when a choice is on the cart, so the page's other lists let go of theirs. */
  onChosen: () => void
  /** Told the plugin's sentence when Medusa refuses a choice, and null when a new one starts. */
  onError: (error: string | null) => void
}

/**
 * Every lastmile choice in one radio group: delivery rates, then stores,
 * then what cannot be offered, each reason once. The cart says which choice
 * it holds (`step.selectedKey`, read again after each choice); while a
 * choice is on its way, that one shows as chosen.
 */
export default function LastmileOptions({
  cartId,
  step,
  onEditAddress,
  onRetry,
  onChosen,
  onError,
}: LastmileOptionsProps) {
  const [pendingKey, setPendingKey] = useState<string | null>(null)
  const choices: LastmileChoice[] = [...step.delivery, ...step.collection]
  const value = pendingKey ?? step.selectedKey
  const { verdict, groups } = step.reasons
  const links = { onEditAddress, onRetry }

  const choose = async (key: string) => {
    const choice = choices.find((c) => c.key === key)
    if (!choice || key === step.selectedKey) {
      return
    }
    onError(null)
    setPendingKey(key)
    const { error } = await chooseLastmileOption(cartId, choice)
    setPendingKey(null)
    if (error) {
      onError(error)
    } else {
      onChosen()
    }
  }

  return (
    <div data-testid="lastmile-options">
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
      {step.chosenUnavailable && choices.length > 0 && (
        <Text className="txt-medium text-ui-fg-subtle mb-4" data-testid="lastmile-chosen-unavailable">
          {step.chosenUnavailable.name}, your choice, cannot be offered any more. Please choose another option.
        </Text>
      )}

      <RadioGroup
        value={value}
        disabled={pendingKey !== null}
        onChange={(key: string | null) => {
          if (key) {
            void choose(key)
          }
        }}
      >
        {step.delivery.map((choice) => (
          <ChoiceRow key={choice.key} choice={choice} checked={choice.key === value} />
        ))}
        {step.collection.length > 0 && (
          <span className="block font-medium txt-medium text-ui-fg-base mt-6 mb-2">Collect from a store</span>
        )}
        {step.collection.map((choice) => (
          <ChoiceRow key={choice.key} choice={choice} checked={choice.key === value} />
        ))}
      </RadioGroup>

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
 * One row, a delivery rate's or a store's: its name, then what tells it
 * apart (a rate's window, text and CO₂ saving; a store's address, unless its
 * readiness text names it, and that text), then the price the cart is
 * charged for it, with a note when it is not a live one.
 */
function ChoiceRow({ choice, checked }: { choice: LastmileChoice; checked: boolean }) {
  const lines =
    choice.kind === "delivery"
      ? [choice.windowText, choice.description, choice.co2Text && `Saves ${choice.co2Text}`]
      : [storeAddressUnlessIn(choice.address, choice.description), choice.description]
  return (
    <Radio
      value={choice.key}
      data-testid={choice.kind === "delivery" ? "lastmile-delivery-rate" : "lastmile-store"}
      className={clx(
        "flex items-center justify-between text-small-regular cursor-pointer py-4 border rounded-rounded px-8 mb-2 hover:shadow-borders-interactive-with-active",
        { "border-ui-border-interactive": checked }
      )}
    >
      <div className="flex items-start gap-x-4">
        <MedusaRadio checked={checked} />
        <div className="flex flex-col">
          <span className="text-base-regular">{choice.name}</span>
          {lines.map((line, index) =>
            line ? (
              <span key={index} className={index === 0 ? "text-ui-fg-subtle" : "text-ui-fg-muted"}>
                {line}
              </span>
            ) : null
          )}
        </div>
      </div>
      <span className="flex flex-col items-end justify-self-end text-ui-fg-base">
        {choice.amount === 0 ? "Free" : choice.priceText}
        {/* "Estimated price" (the merchant's fallback), or "Price as chosen" (kept through a moment's outage) */}
        {choice.priceNote && <span className="txt-small text-ui-fg-muted">{choice.priceNote}</span>}
      </span>
    </Radio>
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
  onRetry: () => void
}) {
  if (!action || action === "choose_another") {
    return null
  }
  return (
    <button
      type="button"
      onClick={action === "try_later" ? onRetry : onEditAddress}
      className="text-ui-fg-interactive"
      data-testid="lastmile-action"
    >
      {text}
    </button>
  )
}
