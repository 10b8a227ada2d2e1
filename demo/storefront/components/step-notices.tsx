import { Alert, Button, Text } from "@medusajs/ui"
import {
  ESTIMATE_NOTE,
  KEPT_NOTE,
  type LastmileDeliveryStep,
  chosenUnavailableText,
  type LastmileShopperAction,
  type LastmileStepVerdict,
  type LastmileVerdictKind,
} from "medusa-plugin-lastmile-storefront"
import { shown } from "../lib/shown-text"

/**
 * What the shopper must know before choosing, each said once: a choice the
 * cart lost at its last change (the method was removed: choose again); what
 * the step comes to when nothing can be offered (a detail to fix, an outage,
 * an address nothing serves) with the one thing to do about it; a choice that
 * can no longer be offered (whatever else is); and what a price is when it is
 * not a live one. The step's live region reads them out when they change.
 */
export function StepNotices({
  step,
  onAction,
}: {
  step: LastmileDeliveryStep
  onAction: (action: LastmileShopperAction) => void
}) {
  const verdict = step.reasons.verdict
  return (
    <>
      {step.lostChoice && (
        <Alert variant="warning" data-testid="lost-choice">
          {shown(step.lostChoice.reason, 400)}
        </Alert>
      )}
      {verdict && <VerdictAlert verdict={verdict} onAction={onAction} />}
      {step.chosenUnavailable && (
        <Alert variant="warning" data-testid="chosen-unavailable">
          {shown(chosenUnavailableText(step.chosenUnavailable), 400)}
        </Alert>
      )}
      {step.delivery.some((choice) => choice.estimate) && (
        <Alert variant="info" data-testid="estimate-notice">
          A price marked “{ESTIMATE_NOTE}” is the shop’s own estimate, not a live quote.
        </Alert>
      )}
      {[...step.delivery, ...step.collection].some((choice) => choice.kept) && (
        <Alert variant="info" data-testid="kept-notice">
          “{KEPT_NOTE}” is the price you chose your option at: your order is charged that, not an estimate.
        </Alert>
      )}
    </>
  )
}

/**
 * How a verdict is shown; "some unavailable" heads the list of reasons
 * instead (UnavailableOptions). During an outage the step says the other
 * rates cannot be shown, beside what it can offer.
 */
const VERDICT_ALERT: Record<LastmileVerdictKind, { variant: "warning" | "error"; testId: string } | null> = {
  prices_unavailable: { variant: "warning", testId: "prices-unavailable" },
  details_needed: { variant: "warning", testId: "missing-details" },
  try_later: { variant: "warning", testId: "try-later" },
  none_available: { variant: "error", testId: "nothing-offered" },
  some_unavailable: null,
}

function VerdictAlert({
  verdict,
  onAction,
}: {
  verdict: LastmileStepVerdict
  onAction: (action: LastmileShopperAction) => void
}) {
  const shown = VERDICT_ALERT[verdict.kind]
  if (!shown) {
    return null
  }
  const { variant, testId } = shown
  const action = verdict.action
  return (
    <Alert variant={variant} data-testid={testId}>
      <div className="flex flex-col items-start gap-y-2">
        <Text size="small">{verdict.text}</Text>
        {action && action !== "choose_another" && (
          <Button size="small" variant="secondary" onClick={() => onAction(action)} data-testid="verdict-action">
            {verdict.actionText}
          </Button>
        )}
      </div>
    </Alert>
  )
}
