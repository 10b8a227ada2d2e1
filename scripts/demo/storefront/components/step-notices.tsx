import { Alert, Button, Text } from "@medusajs/ui"
import type { LastmileDeliveryStep } from "../../../../src/storefront"

/** What the shopper must know before choosing: a detail to fix, nothing on offer, or prices that are estimates. */
export function StepNotices({ step, onEditDetails }: { step: LastmileDeliveryStep; onEditDetails: () => void }) {
  const offered = step.delivery.length + step.collection.length
  return (
    <>
      {step.missingDetails && (
        <Alert variant="warning" data-testid="missing-details">
          <div className="flex flex-col items-start gap-y-2">
            <Text size="small">{step.missingDetails}</Text>
            <Button size="small" variant="secondary" onClick={onEditDetails}>
              Edit your details
            </Button>
          </div>
        </Alert>
      )}
      {!offered && !step.missingDetails && (
        <Alert variant="error" data-testid="nothing-offered">
          We cannot deliver this order to that address, and no store can offer it for collection. Check the postcode, or
          try another address.
        </Alert>
      )}
      {step.delivery.some((choice) => choice.estimate) && (
        <Alert variant="info" data-testid="estimate-notice">
          Live delivery prices are unavailable right now: the delivery price shown is an estimate, and collection from a
          store cannot be confirmed until the service is back.
        </Alert>
      )}
      {step.partial && offered > 0 && (
        <Text size="small" className="text-ui-fg-subtle">
          Only some of our delivery options reach this address.
        </Text>
      )}
    </>
  )
}
