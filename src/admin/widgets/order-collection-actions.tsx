/** What the merchant does with a collection at the store: hand it over (with its code or without), extend, cancel. */
import { Button, Input, Label, Prompt, Text, Textarea, toast, usePrompt } from "@medusajs/ui"
import { useMutation } from "@tanstack/react-query"
import { type FormEvent, useEffect, useRef, useState } from "react"
import { FieldMessage } from "../lib/field-message"
import {
  type ExtendCollectionRequest,
  type HandOverRequest,
  type TaskCollectionView,
  type TaskView,
  sdk,
  statusOf,
} from "../lib/sdk"
import { shownTime } from "./order-task-parts"

/** The shopper's collection code: 6 characters; spaces and case do not count. */
const CODE_LENGTH = 6
const REASON_MIN = 3
const REASON_MAX = 500
const DAYS_MIN = 1
const DAYS_MAX = 30
const DAYS_DEFAULT = 3

type TaskAnswer = { task: TaskView }

const postTask = <T,>(taskId: string, action: string, body: object) =>
  sdk.client.fetch<T>(`/admin/lastmile/tasks/${taskId}/${action}`, { method: "POST", body })

/** What a failed request says beside its field: the route's sentence, else why it never arrived. */
const sentence = (error: Error) => error.message || "The request failed: check the connection and try again."

/** The time given while it is still ahead (the view re-renders when it passes), else null. */
function useStillAhead(iso: string | null): string | null {
  const [, setTick] = useState(0)
  useEffect(() => {
    const left = iso ? Date.parse(iso) - Date.now() : Number.NaN
    if (!(left > 0)) {
      return
    }
    const timer = setTimeout(() => setTick((n) => n + 1), Math.min(left + 250, 2 ** 31 - 1))
    return () => clearTimeout(timer)
  }, [iso])
  return iso && Date.parse(iso) > Date.now() ? iso : null
}

type HandOverError = { kind: "input" | "refused" | "locked" | "failed"; message: string }

/**
 * Hand over with the shopper's code: a wrong code, a refusal or the lock after five wrong codes is said beside the
 * field; "Hand over without the code" asks why first.
 */
export function HandOverForm({
  task,
  lockedUntil,
  onTask,
  onChanged,
}: {
  task: TaskView
  lockedUntil: string | null
  onTask: (task: TaskView) => void
  onChanged: () => void
}) {
  const [code, setCode] = useState("")
  const [error, setError] = useState<HandOverError | null>(null)
  const [overriding, setOverriding] = useState(false)
  const locked = useStillAhead(lockedUntil)
  const inputId = `lastmile-hand-over-code-${task.id}`
  const messageId = `${inputId}-message`
  const handOver = useMutation({
    mutationFn: (body: HandOverRequest) => postTask<TaskAnswer>(task.id, "hand-over", body),
    onSuccess: (answer) => {
      setError(null)
      setCode("")
      toast.success("Handed over")
      onTask(answer.task)
    },
    onError: (failure: Error) => {
      const status = statusOf(failure)
      if (status === 429) {
        // The answer's retry_at does not pass through the SDK: the task's view says until when.
        onChanged()
      }
      setError({
        kind: status === 429 ? "locked" : status === 400 ? "refused" : "failed",
        message: sentence(failure),
      })
    },
  })
  const submit = (event: FormEvent) => {
    event.preventDefault()
    const typed = code.replace(/\s+/g, "")
    if (!typed) {
      setError({ kind: "input", message: "Enter the collection code the shopper was sent." })
      return
    }
    if (typed.length !== CODE_LENGTH) {
      setError({
        kind: "input",
        message: `A collection code has ${CODE_LENGTH} characters; this one has ${typed.length}.`,
      })
      return
    }
    handOver.mutate({ code: typed })
  }
  // Once the view names the lock's end, that time rules: the 429's own sentence only until then.
  const shownError = locked
    ? {
        kind: "locked",
        message: `Five wrong codes: handing over with a code is locked until ${shownTime(locked)}.`,
      }
    : error && !(error.kind === "locked" && lockedUntil)
      ? error
      : null
  return (
    <>
      <form className="flex flex-col gap-y-1" onSubmit={submit} noValidate data-testid="lastmile-hand-over">
        <Label size="small" weight="plus" htmlFor={inputId}>
          Collection code
        </Label>
        <div className="flex items-center gap-x-2">
          <Input
            id={inputId}
            size="small"
            className="uppercase tracking-widest"
            value={code}
            onChange={(event) => {
              setCode(event.target.value)
              if (error?.kind !== "locked") {
                setError(null)
              }
            }}
            autoComplete="off"
            autoCapitalize="characters"
            autoCorrect="off"
            spellCheck={false}
            maxLength={20}
            aria-invalid={shownError?.kind === "input" || shownError?.kind === "refused" ? true : undefined}
            aria-describedby={shownError ? messageId : undefined}
            data-testid="lastmile-hand-over-code"
          />
          <Button
            type="submit"
            size="small"
            variant="secondary"
            isLoading={handOver.isPending}
            disabled={!!locked}
            data-testid="lastmile-hand-over-submit"
          >
            Hand over
          </Button>
        </div>
        <FieldMessage
          id={messageId}
          message={shownError?.message}
          testId="lastmile-hand-over-error"
          kind={shownError?.kind}
        />
        <Button
          type="button"
          size="small"
          variant="transparent"
          className="self-start"
          onClick={() => setOverriding(true)}
          data-testid="lastmile-hand-over-override"
        >
          Hand over without the code
        </Button>
      </form>
      <OverridePrompt task={task} open={overriding} onOpenChange={setOverriding} onTask={onTask} />
    </>
  )
}

/** Hand over without the code: the merchant says why (3 to 500 characters), which the task's history keeps. */
function OverridePrompt({
  task,
  open,
  onOpenChange,
  onTask,
}: {
  task: TaskView
  open: boolean
  onOpenChange: (open: boolean) => void
  onTask: (task: TaskView) => void
}) {
  const [reason, setReason] = useState("")
  const [error, setError] = useState<string | null>(null)
  const field = useRef<HTMLTextAreaElement>(null)
  const fieldId = `lastmile-override-reason-${task.id}`
  const formId = `${fieldId}-form`
  const override = useMutation({
    mutationFn: (body: HandOverRequest) => postTask<TaskAnswer>(task.id, "hand-over", body),
    onSuccess: (answer) => {
      setReason("")
      setError(null)
      onOpenChange(false)
      toast.success("Handed over without the code")
      onTask(answer.task)
    },
    onError: (failure: Error) => setError(sentence(failure)),
  })
  useEffect(() => {
    if (open) {
      setError(null)
    }
  }, [open])
  const length = reason.trim().length
  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (length < REASON_MIN) {
      setError(`Reason: say why in at least ${REASON_MIN} characters.`)
      field.current?.focus()
      return
    }
    if (length > REASON_MAX) {
      setError(`Reason: at most ${REASON_MAX} characters (${length} now).`)
      field.current?.focus()
      return
    }
    override.mutate({ override_reason: reason.trim() })
  }
  return (
    <Prompt variant="confirmation" open={open} onOpenChange={onOpenChange}>
      <Prompt.Content
        onOpenAutoFocus={(event) => {
          event.preventDefault()
          field.current?.focus()
        }}
        data-testid="lastmile-hand-over-override-prompt"
      >
        <form id={formId} onSubmit={submit} noValidate>
          <Prompt.Header>
            <Prompt.Title>Hand over without the code?</Prompt.Title>
            <Prompt.Description>
              Only when you are sure it is the shopper (an ID, the order confirmation). Your reason and your name are
              kept on the task&apos;s history.
            </Prompt.Description>
          </Prompt.Header>
          <div className="flex flex-col gap-y-1 px-6 pt-4">
            <Label size="small" weight="plus" htmlFor={fieldId}>
              Reason
            </Label>
            <Textarea
              id={fieldId}
              ref={field}
              value={reason}
              required
              rows={3}
              onChange={(event) => {
                setReason(event.target.value)
                setError(null)
              }}
              aria-invalid={error ? true : undefined}
              aria-describedby={`${fieldId}-hint${error ? ` ${fieldId}-error` : ""}`}
              data-testid="lastmile-hand-over-override-reason"
            />
            <Text
              size="xsmall"
              id={`${fieldId}-hint`}
              className={length > REASON_MAX ? "text-ui-fg-error" : "text-ui-fg-subtle"}
            >
              {REASON_MIN} to {REASON_MAX} characters ({length} now).
            </Text>
            <FieldMessage id={`${fieldId}-error`} message={error} testId="lastmile-hand-over-override-error" />
          </div>
          <Prompt.Footer>
            <Prompt.Cancel>Keep it</Prompt.Cancel>
            <Button
              type="submit"
              size="small"
              isLoading={override.isPending}
              data-testid="lastmile-hand-over-override-submit"
            >
              Hand over
            </Button>
          </Prompt.Footer>
        </form>
      </Prompt.Content>
    </Prompt>
  )
}

/** Extend the collect-by by a number of open days (1 to 30, 3 unless changed); the backend tells the shopper. */
export function ExtendCollection({
  task,
  collection,
  onTask,
}: {
  task: TaskView
  collection: TaskCollectionView
  onTask: (task: TaskView) => void
}) {
  const [open, setOpen] = useState(false)
  const [days, setDays] = useState(String(DAYS_DEFAULT))
  const [error, setError] = useState<string | null>(null)
  const field = useRef<HTMLInputElement>(null)
  const fieldId = `lastmile-extend-days-${task.id}`
  const extend = useMutation({
    mutationFn: (body: ExtendCollectionRequest) => postTask<TaskAnswer>(task.id, "extend", body),
    onSuccess: (answer) => {
      setOpen(false)
      setError(null)
      setDays(String(DAYS_DEFAULT))
      toast.success(
        answer.task.collection?.collect_by
          ? `Now collect by ${shownTime(answer.task.collection.collect_by)}`
          : "Collection extended"
      )
      onTask(answer.task)
    },
    onError: (failure: Error) => setError(sentence(failure)),
  })
  const count = Number(days)
  const valid = /^\d+$/.test(days.trim()) && count >= DAYS_MIN && count <= DAYS_MAX
  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (!valid) {
      setError(`Days: a whole number from ${DAYS_MIN} to ${DAYS_MAX}.`)
      field.current?.focus()
      return
    }
    extend.mutate({ days: count })
  }
  return (
    <>
      <Button
        size="small"
        variant="secondary"
        onClick={() => {
          setError(null)
          setOpen(true)
        }}
        data-testid="lastmile-extend"
      >
        Extend
      </Button>
      <Prompt variant="confirmation" open={open} onOpenChange={setOpen}>
        <Prompt.Content
          onOpenAutoFocus={(event) => {
            event.preventDefault()
            field.current?.focus()
          }}
          data-testid="lastmile-extend-prompt"
        >
          <form onSubmit={submit} noValidate>
            <Prompt.Header>
              <Prompt.Title>Extend the collection?</Prompt.Title>
              <Prompt.Description>
                {collection.collect_by
                  ? `The store keeps it until ${shownTime(collection.collect_by)} now. `
                  : "The store keeps it for longer. "}
                The shopper is told the new date.
              </Prompt.Description>
            </Prompt.Header>
            <div className="flex flex-col gap-y-1 px-6 pt-4">
              <Label size="small" weight="plus" htmlFor={fieldId}>
                Open days to add
              </Label>
              <Input
                id={fieldId}
                ref={field}
                type="number"
                size="small"
                className="w-24"
                inputMode="numeric"
                min={DAYS_MIN}
                max={DAYS_MAX}
                step={1}
                value={days}
                onChange={(event) => {
                  setDays(event.target.value)
                  setError(null)
                }}
                aria-invalid={error ? true : undefined}
                aria-describedby={`${fieldId}-hint${error ? ` ${fieldId}-error` : ""}`}
                data-testid="lastmile-extend-days"
              />
              <Text size="xsmall" id={`${fieldId}-hint`} className="text-ui-fg-subtle">
                {DAYS_MIN} to {DAYS_MAX} days the store is open.
              </Text>
              <FieldMessage id={`${fieldId}-error`} message={error} testId="lastmile-extend-error" />
            </div>
            <Prompt.Footer>
              <Prompt.Cancel>Keep the date</Prompt.Cancel>
              <Button type="submit" size="small" isLoading={extend.isPending} data-testid="lastmile-extend-confirm">
                {valid ? `Extend by ${count} ${count === 1 ? "day" : "days"}` : "Extend"}
              </Button>
            </Prompt.Footer>
          </form>
        </Prompt.Content>
      </Prompt>
    </>
  )
}

/**
 * Cancel a collection nobody came for: Medusa's fulfillment is cancelled so the stock comes back, and the task says
 * it was not collected.
 */
export function CancelNotCollected({
  task,
  collection,
  onChanged,
}: {
  task: TaskView
  collection: TaskCollectionView
  onChanged: () => void
}) {
  const prompt = usePrompt()
  const [error, setError] = useState<string | null>(null)
  const cancel = useMutation({
    mutationFn: () => postTask<{ task?: TaskView }>(task.id, "cancel", { confirm: true, reason: "not_collected" }),
    onSuccess: () => {
      setError(null)
      toast.success("Cancelled as not collected: the stock is back")
      onChanged()
    },
    onError: (failure: Error) => {
      setError(sentence(failure))
      onChanged()
    },
  })
  const confirm = async () => {
    const confirmed = await prompt({
      title: "Cancel as not collected?",
      description: `${collection.collect_by ? `Its collect-by was ${shownTime(collection.collect_by)}. ` : ""}This cancels the fulfillment in Medusa, so the items' stock comes back, and records that nobody collected it. Take the parcel off the store's shelf.`,
      confirmText: "Cancel as not collected",
      cancelText: "Keep it",
    })
    if (confirmed) {
      cancel.mutate()
    }
  }
  const errorId = `lastmile-cancel-not-collected-error-${task.id}`
  return (
    <div className="flex flex-col gap-y-1">
      <Button
        size="small"
        variant="danger"
        isLoading={cancel.isPending}
        onClick={confirm}
        aria-describedby={error ? errorId : undefined}
        data-testid="lastmile-cancel-not-collected"
      >
        Cancel as not collected
      </Button>
      <FieldMessage id={errorId} message={error} testId="lastmile-cancel-not-collected-error" />
    </div>
  )
}
