import { Spinner } from "@medusajs/icons"
import { RadioGroup, Text, clx } from "@medusajs/ui"
import type { ReactNode } from "react"

/** One choosable option: the whole card is the radio button's label, so one click anywhere chooses it. */
export function ChoiceCard({
  value,
  title,
  price,
  selected,
  pending,
  disabled,
  testId,
  children,
}: {
  value: string
  title: string
  price: string
  selected: boolean
  pending: boolean
  disabled: boolean
  testId: string
  children?: ReactNode
}) {
  const id = `choice-${value}`
  return (
    <label
      htmlFor={id}
      data-testid={testId}
      data-selected={selected}
      data-pending={pending}
      className={clx(
        "bg-ui-bg-base transition-fg flex cursor-pointer items-start gap-x-3 rounded-lg p-3",
        "hover:bg-ui-bg-base-hover",
        selected ? "shadow-borders-interactive-with-active" : "shadow-borders-base"
      )}
    >
      <RadioGroup.Item id={id} value={value} disabled={disabled} aria-label={title} />
      <div className="flex min-w-0 flex-1 flex-col gap-y-1">
        <div className="flex items-start justify-between gap-x-2">
          <Text weight="plus" data-testid="choice-title">
            {title}
          </Text>
          <div className="flex items-center gap-x-2">
            {pending && <Spinner className="text-ui-fg-muted animate-spin" />}
            <Text weight="plus" data-testid="choice-price">
              {price}
            </Text>
          </div>
        </div>
        {children}
      </div>
    </label>
  )
}
