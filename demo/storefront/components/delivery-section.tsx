import { Alert, RadioGroup, Text } from "@medusajs/ui"
import type { LastmileChoice, LastmileDeliveryStep, LastmileShopperAction } from "medusa-plugin-lastmile-storefront"
import type { ChoiceState } from "./choice-card"
import { CollectionChoiceCard } from "./collection-choice-card"
import { DeliveryChoiceCard } from "./delivery-choice-card"
import { SectionCard } from "./section-card"
import { StepNotices } from "./step-notices"
import { UnavailableOptions } from "./unavailable-options"

/**
 * The delivery step as `createLastmileStorefront(sdk).loadDeliveryStep` shapes it: every delivery rate,
 * every store that can offer collection, and what cannot be offered, each reason once. One click chooses.
 */
export function DeliverySection({
  step,
  pendingKey,
  error,
  onChoose,
  onAction,
}: {
  step: LastmileDeliveryStep
  pendingKey: string | null
  error: string | null
  onChoose: (choice: LastmileChoice) => void
  /** What the shopper can do about a reason: edit a detail, or try again. */
  onAction: (action: LastmileShopperAction) => void
}) {
  const choices: LastmileChoice[] = [...step.delivery, ...step.collection]
  const value = pendingKey ?? step.selectedKey ?? ""
  const props = (key: string): ChoiceState => ({
    selected: value === key,
    pending: pendingKey === key,
    disabled: pendingKey !== null,
  })
  const choose = (key: string) => {
    const choice = choices.find((c) => c.key === key)
    if (choice) {
      onChoose(choice)
    }
  }
  return (
    <SectionCard number={3} title="Delivery or collection" testId="delivery-section">
      <StepNotices step={step} onAction={onAction} />
      {error && (
        <Alert variant="error" data-testid="choose-error">
          {error}
        </Alert>
      )}
      {choices.length > 0 && (
        <RadioGroup value={value} onValueChange={choose} className="flex flex-col gap-y-4">
          {step.delivery.length > 0 && (
            <div className="flex flex-col gap-y-2">
              <Text size="small" weight="plus" className="text-ui-fg-subtle">
                Delivered to your door
              </Text>
              {step.delivery.map((choice) => (
                <DeliveryChoiceCard key={choice.key} choice={choice} {...props(choice.key)} />
              ))}
            </div>
          )}
          {step.collection.length > 0 && (
            <div className="flex flex-col gap-y-2">
              <Text size="small" weight="plus" className="text-ui-fg-subtle">
                Collect from a store
              </Text>
              <div className="grid grid-cols-2 gap-2">
                {step.collection.map((choice) => (
                  <CollectionChoiceCard key={choice.key} choice={choice} {...props(choice.key)} />
                ))}
              </div>
            </div>
          )}
        </RadioGroup>
      )}
      <UnavailableOptions reasons={step.reasons} onAction={onAction} />
    </SectionCard>
  )
}
