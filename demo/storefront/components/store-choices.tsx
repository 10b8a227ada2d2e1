import { Button, Text } from "@medusajs/ui"
import { useState } from "react"
import { type LastmileDeliveryStep, listStores } from "medusa-plugin-lastmile-storefront"
import type { ChoiceHandlers, ChoiceState } from "./choice-card"
import { CollectionChoiceCard } from "./collection-choice-card"

const STORE_LIST_ID = "store-choices"

/** Said when the browser gave no position (refused, not found): the stores stay in order of the postcode. */
export const BY_POSTCODE_TEXT = "Showing stores by your postcode instead."

/**
 * The stores of the step: the nearest five (and the chosen one wherever it is), the rest behind "Show all stores";
 * "Use my location" asks the browser for the shopper's position only when pressed. What changes is said in a polite
 * status beside the buttons, which the focus never leaves.
 */
export function StoreChoices({
  step,
  state,
  handlers,
  describedBy,
  keep,
  onUseMyLocation,
}: {
  step: LastmileDeliveryStep
  state: (key: string) => ChoiceState
  handlers: ChoiceHandlers
  describedBy: string
  /** Stores to keep shown besides the chosen one: on their way to the cart, or reached with the arrow keys. */
  keep: (string | null)[]
  /** Asks the browser for the shopper's position and reloads the step: "near" when it did, else "postcode". */
  onUseMyLocation: () => Promise<"near" | "postcode">
}) {
  const [showAll, setShowAll] = useState(false)
  const [locating, setLocating] = useState(false)
  const [said, setSaid] = useState<string | null>(null)
  const stores = listStores(step, { showAll, keep })
  const hidden = stores.more > 0
  // The button stays while there are more stores than the nearest five, so focus stays on it once they are shown.
  const collapsible = listStores(step, { keep }).more > 0

  const locate = async () => {
    setLocating(true)
    const found = await onUseMyLocation()
    setLocating(false)
    setSaid(found === "near" ? "Showing the stores nearest you first." : BY_POSTCODE_TEXT)
  }
  const toggle = () => {
    const next = !showAll
    setShowAll(next)
    setSaid(listStores(step, { showAll: next, keep }).summary)
  }

  return (
    <fieldset
      className="flex flex-col gap-y-2"
      data-testid="store-choices"
      data-order={stores.byDistance ? "distance" : "postcode"}
      data-shown={stores.shown.length}
    >
      <legend className="txt-small-plus text-ui-fg-subtle mb-2">Collect from a store</legend>
      <div className="flex flex-wrap items-center justify-between gap-2">
        {/* What the order is, and what the last press changed, said politely. */}
        <Text size="small" role="status" className="text-ui-fg-subtle" data-testid="stores-status">
          {said ?? (stores.byDistance ? "Nearest you first." : "Nearest your postcode first.")}
        </Text>
        <Button
          type="button"
          size="small"
          variant="secondary"
          isLoading={locating}
          onClick={() => void locate()}
          data-testid="use-my-location"
        >
          Use my location
        </Button>
      </div>
      <div id={STORE_LIST_ID} className="grid grid-cols-2 gap-2">
        {stores.shown.map((choice) => (
          <CollectionChoiceCard
            key={choice.key}
            choice={choice}
            handlers={handlers}
            describedBy={describedBy}
            {...state(choice.key)}
          />
        ))}
      </div>
      {collapsible && (
        <div>
          <Button
            type="button"
            size="small"
            variant="secondary"
            onClick={toggle}
            aria-controls={STORE_LIST_ID}
            data-testid="show-all-stores"
          >
            {hidden ? stores.showAllText : "Show the nearest stores only"}
          </Button>
        </div>
      )}
    </fieldset>
  )
}
