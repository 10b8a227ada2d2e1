/** The location widget's "Collection at this store": what shoppers read, the closed dates, the store's position. */
import { Button, Input, Label, Text, Textarea, toast } from "@medusajs/ui"
import { useMutation, useQueryClient } from "@tanstack/react-query"
import { type FormEvent, useMemo, useState } from "react"
import { FieldMessage } from "../lib/field-message"
import {
  type StockLocationLastmileView,
  type StockLocationPickup,
  type StockLocationPickupRequest,
  sdk,
  stockLocationQueryKey,
} from "../lib/sdk"
import { usePaused } from "../lib/use-paused"

const INSTRUCTIONS_MAX = 500
const DAY = /^\d{4}-\d{2}-\d{2}$/

type Field = "instructions" | "closed_dates" | "position" | "form"
type Errors = Partial<Record<Field, string>>

/** The field a 400's sentence names, so it sits beside that field. */
function fieldOf(message: string): Field {
  if (/instruction/i.test(message)) {
    return "instructions"
  }
  if (/closed|date/i.test(message)) {
    return "closed_dates"
  }
  if (/position|latitude|longitude/i.test(message)) {
    return "position"
  }
  return "form"
}

/** A `YYYY-MM-DD` as the browser writes a day (the day itself, whatever the browser's zone). */
function shownDay(day: string): string {
  const [year, month, date] = day.split("-").map(Number)
  const at = new Date(Date.UTC(year, month - 1, date))
  return Number.isNaN(at.getTime())
    ? day
    : at.toLocaleDateString(undefined, {
        weekday: "short",
        day: "numeric",
        month: "short",
        year: "numeric",
        timeZone: "UTC",
      })
}

/** Today in the browser's calendar, as `YYYY-MM-DD`. */
function today(): string {
  const now = new Date()
  return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, "0")}-${String(now.getDate()).padStart(2, "0")}`
}

/** The position typed: null when both are empty, an error when only one is given or either is out of range. */
function readPosition(latitude: string, longitude: string): { position: StockLocationPickup["position"] } | string {
  if (!latitude.trim() && !longitude.trim()) {
    return { position: null }
  }
  const lat = Number(latitude)
  const lng = Number(longitude)
  if (!latitude.trim() || !longitude.trim() || !Number.isFinite(lat) || !Number.isFinite(lng)) {
    return "Position: give both latitude and longitude as numbers, or clear them."
  }
  if (lat < -90 || lat > 90) {
    return "Position: latitude is between -90 and 90."
  }
  if (lng < -180 || lng > 180) {
    return "Position: longitude is between -180 and 180."
  }
  return { position: { latitude: lat, longitude: lng } }
}

const samePosition = (a: StockLocationPickup["position"], b: StockLocationPickup["position"]) =>
  a === b || (!!a && !!b && a.latitude === b.latitude && a.longitude === b.longitude)

/**
 * Shows and edits what the store tells shoppers who collect there, the dates it is closed besides its weekly hours,
 * and its position; one Save sends the fields changed, and the backend's refusal sits beside the field it names.
 * Remount it (a `key`) to start again from what is kept.
 */
export function PickupSection({ locationId, pickup }: { locationId: string; pickup: StockLocationPickup }) {
  const client = useQueryClient()
  const [instructions, setInstructions] = useState(pickup.instructions ?? "")
  const [dates, setDates] = useState<string[]>(pickup.closed_dates)
  const [newDate, setNewDate] = useState("")
  const [latitude, setLatitude] = useState(pickup.position ? String(pickup.position.latitude) : "")
  const [longitude, setLongitude] = useState(pickup.position ? String(pickup.position.longitude) : "")
  const [errors, setErrors] = useState<Errors>({})
  const pausedLength = usePaused(instructions.length, 1000)
  const firstDay = useMemo(today, [])
  const save = useMutation({
    mutationFn: (body: StockLocationPickupRequest) =>
      sdk.client.fetch<StockLocationPickup>(`/admin/lastmile/stock-locations/${locationId}/pickup`, {
        method: "POST",
        body,
      }),
    onSuccess: (kept) => {
      toast.success("Collection settings saved")
      const key = [...stockLocationQueryKey, locationId]
      client.setQueryData<StockLocationLastmileView>(key, (before) => (before ? { ...before, pickup: kept } : before))
      client.invalidateQueries({ queryKey: key })
    },
    onError: (failure: Error) => {
      const message = failure.message || "Not saved: check the connection and try again."
      setErrors({ [fieldOf(message)]: message })
    },
  })

  const keptInstructions = pickup.instructions ?? ""
  const position = readPosition(latitude, longitude)
  const body: StockLocationPickupRequest = {
    ...(instructions.trim() !== keptInstructions.trim() ? { instructions: instructions.trim() || null } : {}),
    ...(dates.join() !== pickup.closed_dates.join() ? { closed_dates: dates } : {}),
    ...(typeof position === "string" || !samePosition(position.position, pickup.position)
      ? { position: typeof position === "string" ? null : position.position }
      : {}),
  }
  const dirty = Object.keys(body).length > 0

  const addDate = () => {
    if (!DAY.test(newDate)) {
      setErrors({ closed_dates: "Closed dates: choose a date to add." })
      return
    }
    if (dates.includes(newDate)) {
      setErrors({ closed_dates: `Closed dates: ${shownDay(newDate)} is closed already.` })
      return
    }
    setDates([...dates, newDate].sort())
    setNewDate("")
    setErrors({})
  }
  const submit = (event: FormEvent) => {
    event.preventDefault()
    const found: Errors = {}
    if (instructions.trim().length > INSTRUCTIONS_MAX) {
      found.instructions = `Instructions: at most ${INSTRUCTIONS_MAX} characters (${instructions.trim().length} now).`
    }
    if (typeof position === "string") {
      found.position = position
    }
    setErrors(found)
    if (!Object.keys(found).length && dirty) {
      save.mutate(body)
    }
  }
  const over = instructions.trim().length > INSTRUCTIONS_MAX
  const described = (field: Field, hint?: string) =>
    [hint, errors[field] ? `lastmile-pickup-error-${field}-${locationId}` : null].filter(Boolean).join(" ") || undefined

  return (
    <form
      className="flex flex-col gap-y-4 px-6 py-4"
      onSubmit={submit}
      noValidate
      aria-labelledby={`lastmile-pickup-heading-${locationId}`}
      data-testid="lastmile-pickup"
    >
      <Text size="small" weight="plus" id={`lastmile-pickup-heading-${locationId}`}>
        Collection at this store
      </Text>

      <div className="flex flex-col gap-y-1">
        <Label size="small" weight="plus" htmlFor={`lastmile-pickup-instructions-${locationId}`}>
          Instructions for shoppers
        </Label>
        <Textarea
          id={`lastmile-pickup-instructions-${locationId}`}
          value={instructions}
          rows={4}
          onChange={(event) => {
            setInstructions(event.target.value)
            setErrors((before) => ({ ...before, instructions: undefined }))
          }}
          aria-invalid={errors.instructions || over ? true : undefined}
          aria-describedby={described("instructions", `lastmile-pickup-instructions-hint-${locationId}`)}
          data-testid="lastmile-pickup-instructions"
        />
        <div className="flex justify-between gap-x-2">
          <Text size="xsmall" className="text-ui-fg-subtle" id={`lastmile-pickup-instructions-hint-${locationId}`}>
            Where to go and what to bring, in the collection messages. Up to {INSTRUCTIONS_MAX} characters.
          </Text>
          <Text
            size="xsmall"
            className={over ? "text-ui-fg-error" : "text-ui-fg-subtle"}
            aria-hidden="true"
            data-testid="lastmile-pickup-instructions-counter"
          >
            {instructions.length}/{INSTRUCTIONS_MAX}
          </Text>
          <span className="sr-only" aria-live="polite">
            {pausedLength} of {INSTRUCTIONS_MAX} characters
          </span>
        </div>
        <FieldMessage
          id={`lastmile-pickup-error-instructions-${locationId}`}
          message={errors.instructions}
          testId="lastmile-pickup-error-instructions"
        />
      </div>

      <fieldset className="flex flex-col gap-y-2">
        <legend className="txt-compact-small-plus mb-1">Closed dates</legend>
        <Text size="xsmall" className="text-ui-fg-subtle" id={`lastmile-pickup-dates-hint-${locationId}`}>
          Days the store is shut besides its weekly hours: a collection is never ready or due on one.
        </Text>
        {dates.length ? (
          <ul className="flex flex-col gap-y-1" aria-label="Closed dates" data-testid="lastmile-pickup-dates">
            {dates.map((day) => (
              <li
                key={day}
                className="flex items-center justify-between gap-x-2"
                data-testid={`lastmile-pickup-date-${day}`}
              >
                <Text size="small">
                  <time dateTime={day}>{shownDay(day)}</time>
                  {day < firstDay ? <span className="text-ui-fg-subtle"> (past)</span> : null}
                </Text>
                <Button
                  type="button"
                  size="small"
                  variant="transparent"
                  aria-label={`Remove ${shownDay(day)}`}
                  onClick={() => setDates(dates.filter((d) => d !== day))}
                  data-testid={`lastmile-pickup-date-remove-${day}`}
                >
                  Remove
                </Button>
              </li>
            ))}
          </ul>
        ) : (
          <Text size="small" className="text-ui-fg-subtle">
            None.
          </Text>
        )}
        <div className="flex flex-col gap-y-1">
          <Label size="small" htmlFor={`lastmile-pickup-date-${locationId}`}>
            Add a closed date
          </Label>
          <div className="flex items-center gap-x-2">
            <Input
              id={`lastmile-pickup-date-${locationId}`}
              type="date"
              size="small"
              className="w-44"
              value={newDate}
              min={firstDay}
              onChange={(event) => {
                setNewDate(event.target.value)
                setErrors((before) => ({ ...before, closed_dates: undefined }))
              }}
              onKeyDown={(event) => {
                if (event.key === "Enter") {
                  event.preventDefault()
                  addDate()
                }
              }}
              aria-invalid={errors.closed_dates ? true : undefined}
              aria-describedby={described("closed_dates", `lastmile-pickup-dates-hint-${locationId}`)}
              data-testid="lastmile-pickup-date-input"
            />
            <Button
              type="button"
              size="small"
              variant="secondary"
              onClick={addDate}
              data-testid="lastmile-pickup-date-add"
            >
              Add date
            </Button>
          </div>
        </div>
        <FieldMessage
          id={`lastmile-pickup-error-closed_dates-${locationId}`}
          message={errors.closed_dates}
          testId="lastmile-pickup-error-closed_dates"
        />
      </fieldset>

      <fieldset className="flex flex-col gap-y-2">
        <legend className="txt-compact-small-plus mb-1">Position</legend>
        <Text size="xsmall" className="text-ui-fg-subtle" id={`lastmile-pickup-position-hint-${locationId}`}>
          Decimal degrees, for showing shoppers the nearest stores first. Leave both empty for none.
        </Text>
        <div className="flex flex-wrap items-end gap-2">
          {(
            [
              ["latitude", "Latitude", latitude, setLatitude, -90, 90],
              ["longitude", "Longitude", longitude, setLongitude, -180, 180],
            ] as const
          ).map(([name, label, value, set, min, max]) => (
            <div key={name} className="flex flex-col gap-y-1">
              <Label size="small" htmlFor={`lastmile-pickup-${name}-${locationId}`}>
                {label}
              </Label>
              <Input
                id={`lastmile-pickup-${name}-${locationId}`}
                type="number"
                size="small"
                className="w-32"
                inputMode="decimal"
                step="any"
                min={min}
                max={max}
                value={value}
                onChange={(event) => {
                  set(event.target.value)
                  setErrors((before) => ({ ...before, position: undefined }))
                }}
                aria-invalid={errors.position ? true : undefined}
                aria-describedby={described("position", `lastmile-pickup-position-hint-${locationId}`)}
                data-testid={`lastmile-pickup-${name}`}
              />
            </div>
          ))}
          <Button
            type="button"
            size="small"
            variant="transparent"
            disabled={!latitude && !longitude}
            onClick={() => {
              setLatitude("")
              setLongitude("")
              setErrors((before) => ({ ...before, position: undefined }))
            }}
            data-testid="lastmile-pickup-position-clear"
          >
            Clear position
          </Button>
        </div>
        <FieldMessage
          id={`lastmile-pickup-error-position-${locationId}`}
          message={errors.position}
          testId="lastmile-pickup-error-position"
        />
      </fieldset>

      <div className="flex flex-col items-end gap-y-1">
        <Button
          type="submit"
          size="small"
          isLoading={save.isPending}
          disabled={!dirty}
          aria-describedby={errors.form ? `lastmile-pickup-error-form-${locationId}` : undefined}
          data-testid="lastmile-pickup-save"
        >
          Save
        </Button>
        <FieldMessage
          id={`lastmile-pickup-error-form-${locationId}`}
          message={errors.form}
          testId="lastmile-pickup-error-form"
        />
      </div>
    </form>
  )
}
