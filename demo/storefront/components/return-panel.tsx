import { Alert, Button, Heading, Text } from "@medusajs/ui"
import { useState } from "react"
import { shopperMessage } from "../lib/messages"
import type { ReturnOffer, ReturnableItem } from "../lib/returns"
import type { Shop } from "../lib/shop"

type ReturnState =
  | { step: "closed" }
  | { step: "loading" }
  | { step: "load_failed"; message: string }
  | { step: "offer"; offer: ReturnOffer; itemId: string | null; sending: boolean; error: string | null }
  | { step: "requested"; item: ReturnableItem; collectFrom: string | null; returnLabel: string }

/**
 * "Return an item": one item, quantity 1, sent back with the shop's lastmile
 * return option (`POST /store/returns`). The plugin books the courier's
 * collection from the order's address when Medusa records the return. The
 * store API does not show a return's booking, so the page says what was
 * asked for and where the courier collects.
 */
export function ReturnPanel({ shop, orderId }: { shop: Shop; orderId: string }) {
  const [state, setState] = useState<ReturnState>({ step: "closed" })

  const load = async () => {
    setState({ step: "loading" })
    try {
      const offer = await shop.loadReturnOffer(orderId)
      setState({ step: "offer", offer, itemId: firstReturnable(offer)?.id ?? null, sending: false, error: null })
    } catch (error) {
      setState({ step: "load_failed", message: shopperMessage(error) })
    }
  }

  const request = async (offer: ReturnOffer, optionId: string, item: ReturnableItem) => {
    setState({ step: "offer", offer, itemId: item.id, sending: true, error: null })
    try {
      const created = await shop.requestReturn(orderId, optionId, item.id)
      const returnLabel = created.display_id ? `Return #${created.display_id}` : `Return ${created.id}`
      setState({ step: "requested", item, collectFrom: offer.collectFrom, returnLabel })
    } catch (error) {
      // A 4xx carries Medusa's or the plugin's sentence (nothing left to return, an option it refuses…).
      setState({ step: "offer", offer, itemId: item.id, sending: false, error: shopperMessage(error) })
    }
  }

  return (
    <div className="flex flex-col gap-y-3" data-testid="return-panel">
      <Heading level="h2">Return an item</Heading>
      <ReturnBody
        state={state}
        onLoad={() => void load()}
        onPick={(itemId) => state.step === "offer" && setState({ ...state, itemId, error: null })}
        onRequest={(offer, optionId, item) => void request(offer, optionId, item)}
      />
    </div>
  )
}

function ReturnBody({
  state,
  onLoad,
  onPick,
  onRequest,
}: {
  state: ReturnState
  onLoad: () => void
  onPick: (itemId: string) => void
  onRequest: (offer: ReturnOffer, optionId: string, item: ReturnableItem) => void
}) {
  switch (state.step) {
    case "closed":
      return (
        <div className="flex items-center justify-between gap-x-2">
          <Text size="small" className="text-ui-fg-subtle">
            Changed your mind? A courier collects the item from your address.
          </Text>
          <Button variant="secondary" size="small" onClick={onLoad} data-testid="return-start">
            Return an item
          </Button>
        </div>
      )
    case "loading":
      return <Text className="text-ui-fg-subtle">Looking up what can be returned…</Text>
    case "load_failed":
      return <Retry message={state.message} testId="return-load-error" onRetry={onLoad} variant="error" />
    case "requested":
      return (
        <Alert variant="success" data-testid="return-requested">
          <div className="flex flex-col gap-y-1">
            <Text size="small">
              Return requested: a courier will collect 1 × {state.item.title} from {state.collectFrom ?? "your address"}
              .
            </Text>
            <Text size="small" className="text-ui-fg-subtle">
              {state.returnLabel}
            </Text>
          </div>
        </Alert>
      )
    case "offer":
      return <ReturnOfferForm state={state} onLoad={onLoad} onPick={onPick} onRequest={onRequest} />
  }
}

function ReturnOfferForm({
  state,
  onLoad,
  onPick,
  onRequest,
}: {
  state: Extract<ReturnState, { step: "offer" }>
  onLoad: () => void
  onPick: (itemId: string) => void
  onRequest: (offer: ReturnOffer, optionId: string, item: ReturnableItem) => void
}) {
  const { offer, itemId, sending, error } = state
  const optionId = offer.optionId
  if (!optionId) {
    return (
      <Text size="small" className="text-ui-fg-subtle" data-testid="returns-not-offered">
        Returns by courier are not offered for this order.
      </Text>
    )
  }
  const returnable = offer.items.filter((item) => item.returnable > 0)
  if (!returnable.length) {
    return (
      <Retry
        message="Nothing can be returned yet: an item can be returned once it has been sent."
        testId="nothing-returnable"
        onRetry={onLoad}
        variant="info"
      />
    )
  }
  const picked = returnable.find((item) => item.id === itemId)
  return (
    <div className="flex flex-col gap-y-3">
      <fieldset className="flex flex-col gap-y-2">
        <legend className="txt-small-plus text-ui-fg-subtle mb-1">Which item?</legend>
        {returnable.map((item) => (
          <label key={item.id} className="flex cursor-pointer items-center gap-x-2" data-testid="return-item">
            <input
              type="radio"
              name="return-item"
              className="lm-radio"
              value={item.id}
              checked={itemId === item.id}
              disabled={sending}
              onChange={() => onPick(item.id)}
            />
            <Text size="small" as="span">
              1 × {item.title}
            </Text>
          </label>
        ))}
      </fieldset>
      <Text size="small" className="text-ui-fg-subtle">
        A courier will collect it from {offer.collectFrom ?? "your address"}.
      </Text>
      {error && (
        <Alert variant="error" data-testid="return-error">
          {error}
        </Alert>
      )}
      <div className="flex justify-end">
        <Button
          size="small"
          isLoading={sending}
          disabled={!picked}
          onClick={() => picked && onRequest(offer, optionId, picked)}
          data-testid="return-submit"
        >
          Request return
        </Button>
      </div>
    </div>
  )
}

function Retry({
  message,
  testId,
  onRetry,
  variant,
}: {
  message: string
  testId: string
  onRetry: () => void
  variant: "error" | "info"
}) {
  return (
    <Alert variant={variant} data-testid={testId}>
      <div className="flex flex-col items-start gap-y-2">
        <Text size="small">{message}</Text>
        <Button size="small" variant="secondary" onClick={onRetry}>
          Check again
        </Button>
      </div>
    </Alert>
  )
}

function firstReturnable(offer: ReturnOffer): ReturnableItem | undefined {
  return offer.items.find((item) => item.returnable > 0)
}
