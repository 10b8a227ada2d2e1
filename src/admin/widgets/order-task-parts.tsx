/** The order widget's smaller parts: the shopper's note, what was charged against what was booked, who did it, when. */
import { Text } from "@medusajs/ui"
import { useQuery } from "@tanstack/react-query"
import { type DeliveryNoteView, type TaskView, sdk } from "../lib/sdk"
import { shown } from "../lib/shown-text"

/** A moment as the merchant's browser writes it: its date and time in the browser's locale and zone. */
export function shownTime(iso: string): string {
  const date = new Date(iso)
  return Number.isNaN(date.getTime())
    ? iso
    : date.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" })
}

/** A moment on screen, machine-readable too. */
export function Time({ at }: { at: string }) {
  return <time dateTime={at}>{shownTime(at)}</time>
}

/**
 * The admin user behind an entry, by name (else email) when the dashboard can read the user, else by id; "an admin"
 * when none was recorded.
 */
export function ActorName({ id }: { id: string | null | undefined }) {
  const user = useQuery({
    queryKey: ["lastmile", "admin-user", id],
    queryFn: () => sdk.admin.user.retrieve(id ?? "", { fields: "id,email,first_name,last_name" }),
    enabled: !!id,
    staleTime: Infinity,
    retry: false,
  })
  if (!id) {
    return <>an admin</>
  }
  const found = user.data?.user
  const name = [found?.first_name, found?.last_name].filter(Boolean).join(" ") || found?.email || id
  return <>{shown(name, 100)}</>
}

const NOTE_SENT_WORDS: Record<DeliveryNoteView["to_service"], (enabled: boolean) => string> = {
  sent: () => "Sent to the courier with the booking.",
  refused: () =>
    "The service refused the note, so the delivery was booked without it: pass it on to the courier yourself.",
  not_sent: (enabled) =>
    enabled
      ? "Not sent with this booking: pass it on to the courier if it matters."
      : "Not sent to the service (send_delivery_note is off): pass it on to the courier if it matters.",
  not_booked: (enabled) =>
    enabled
      ? "Sent with the booking, once it is made."
      : "Not sent to the service (send_delivery_note is off): pass it on to the courier if it matters.",
}

/**
 * The shopper's note to the courier, in their words (a gate code, a safe place), and whether it reached the service:
 * the dispatcher passes it on when it did not.
 */
export function CourierNote({ note }: { note: DeliveryNoteView }) {
  const refused = note.to_service === "refused"
  return (
    <div className="flex flex-col gap-y-1 px-6 py-4" data-testid="lastmile-delivery-note" data-sent={note.to_service}>
      <Text size="small" weight="plus" id="lastmile-delivery-note-heading">
        Shopper&apos;s note to the courier
      </Text>
      <blockquote aria-labelledby="lastmile-delivery-note-heading" className="text-ui-fg-base text-sm">
        {shown(note.text, 300)}
      </blockquote>
      <Text size="small" className={refused ? "text-ui-fg-error" : "text-ui-fg-subtle"}>
        {NOTE_SENT_WORDS[note.to_service](note.send_enabled)}
      </Text>
    </div>
  )
}

/** An amount in its currency, as the merchant's browser writes money. */
function money(amount: number, currency: string | null): string {
  try {
    return new Intl.NumberFormat(undefined, { style: "currency", currency: currency ?? "" }).format(amount)
  } catch {
    return `${amount} ${currency ?? ""}`.trim()
  }
}

/**
 * What the shopper was charged at checkout beside what the booking took: the rate it named (or the estimate it
 * was), against the rate booked and its price. The two differ when the shopper paid the estimate during an
 * outage, the booking picking the rate by the option's rule later, or when the price moved before booking.
 */
export function ChargedAndBooked({ task }: { task: TaskView }) {
  const { charged, booked_rate: booked } = task
  if (!charged && !booked) {
    return null
  }
  const chargedFor = charged?.estimate
    ? "the shop's estimate, no rate named"
    : charged?.rate_name
      ? shown(charged.rate_name, 100)
      : null
  const differs =
    !!charged &&
    !!booked &&
    (charged.estimate ||
      (booked.amount !== null && booked.amount !== charged.amount) ||
      (!!charged.rate_name && !!booked.name && charged.rate_name !== booked.name))
  return (
    <div className="flex flex-col" data-testid="lastmile-charged-booked" data-differs={differs ? "true" : "false"}>
      {charged && (
        <Text size="small" data-testid="lastmile-charged">
          Charged {money(charged.amount, charged.currency_code)}
          {chargedFor ? ` (${chargedFor})` : ""}
        </Text>
      )}
      {booked && (
        <Text size="small" data-testid="lastmile-booked">
          Booked {shown(booked.name ?? booked.rate_code, 100)}
          {booked.amount !== null ? ` at ${money(booked.amount, booked.currency_code)}` : ""}
        </Text>
      )}
    </div>
  )
}
