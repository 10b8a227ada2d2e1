import { defineWidgetConfig } from "@medusajs/admin-sdk"
import type { AdminOrder, DetailWidgetProps } from "@medusajs/framework/types"
import { Badge, Button, Container, Heading, Text, toast, usePrompt } from "@medusajs/ui"
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query"
import { type OrderTasksResponse, type TaskCancellation, type TaskView, sdk } from "../lib/sdk"
import { WRAP_ANYWHERE, httpLink, shown } from "../lib/shown-text"
import { CollectionBlock } from "./order-collection"
import { ActorName, ChargedAndBooked, CourierNote } from "./order-task-parts"

const BOOKING_WORDS: Record<TaskView["status"], string> = {
  pending: "Waiting to be booked",
  booking: "Booking…",
  booked: "Booked",
  failed: "Booking failed, retrying automatically",
  needs_attention: "Needs your decision",
  cancelled: "Not booked: the order was cancelled",
}

const STATE_COLOR: Record<string, "grey" | "blue" | "green" | "red"> = {
  awaiting: "grey",
  shipped: "blue",
  delivered: "green",
  cancelled: "red",
}

type TaskAction = "retry" | "cancel" | "notice/dismiss"

/**
 * Every lastmile task of the order: its own delivery, each replacement's,
 * items shipped separately, each return. Each shows where it stands, what
 * went wrong, and what the merchant can do: retry it, refresh it, or, while
 * it is live at the service, cancel it there (or here anyway).
 */
const LastmileOrderWidget = ({ data: order }: DetailWidgetProps<AdminOrder>) => {
  const client = useQueryClient()
  const prompt = usePrompt()
  const key = ["lastmile", "order", order.id]
  const { data } = useQuery({
    queryKey: key,
    queryFn: () => sdk.client.fetch<OrderTasksResponse>(`/admin/lastmile/orders/${order.id}`),
  })
  const reload = () => {
    client.invalidateQueries({ queryKey: key })
    client.invalidateQueries({ queryKey: ["orders"] })
  }
  /** A route's answer for one task: shown at once (keeping what only the order's answer carries), then read again. */
  const putTask = (next: TaskView) => {
    client.setQueryData<OrderTasksResponse>(key, (before) =>
      before
        ? {
            ...before,
            tasks: before.tasks.map((task) =>
              task.id === next.id ? { ...next, charged: next.charged ?? task.charged } : task
            ),
          }
        : before
    )
    reload()
  }
  const refresh = useMutation({
    mutationFn: () =>
      sdk.client.fetch<{ tasks: TaskView[] }>(`/admin/lastmile/orders/${order.id}/refresh`, { method: "POST" }),
    onSuccess: (result) => {
      client.setQueryData<OrderTasksResponse>(key, (before) => ({
        tasks: result.tasks,
        delivery_note: before?.delivery_note ?? null,
      }))
      client.invalidateQueries({ queryKey: ["orders"] })
    },
    onError: (error: Error) => toast.error(error.message),
  })
  const act = useMutation({
    mutationFn: ({ task, action }: { task: TaskView; action: TaskAction }) =>
      sdk.client.fetch(`/admin/lastmile/tasks/${task.id}/${action}`, {
        method: "POST",
        body: action === "cancel" ? { confirm: true } : {},
      }),
    onSuccess: reload,
    onError: (error: Error) => {
      toast.error(error.message)
      reload()
    },
  })
  const cancelAnyway = async (task: TaskView) => {
    const confirmed = await prompt({
      title: "Cancel in Medusa although the service has not?",
      description: `Task ${task.task_id} is live at the lastmile service, which has no cancel operation: cancel it in the service's app too. This cancels Medusa's fulfillment now and records that you did.`,
      confirmText: "Cancel anyway",
      cancelText: "Keep it",
    })
    if (confirmed) {
      act.mutate({ task, action: "cancel" })
    }
  }
  const tasks = data?.tasks ?? []
  const note = data?.delivery_note ?? null
  if (!tasks.length && !note) {
    return null
  }
  return (
    <Container className="divide-y p-0" data-testid="lastmile-order-widget" style={WRAP_ANYWHERE}>
      <div className="flex items-center justify-between px-6 py-4">
        <Heading level="h2">Lastmile</Heading>
        {tasks.some((t) => t.status === "booked") && (
          <Button size="small" variant="secondary" isLoading={refresh.isPending} onClick={() => refresh.mutate()}>
            Refresh
          </Button>
        )}
      </div>
      {note && <CourierNote note={note} />}
      {tasks.map((task) => (
        <div key={task.id} className="flex flex-col gap-y-2 px-6 py-4" data-testid="lastmile-task">
          <div className="flex items-center justify-between gap-x-2">
            <Text size="small" weight="plus">
              {task.label}
              {task.task_id ? ` · task ${shown(task.task_id, 100)}` : ""}
            </Text>
            {task.status === "booked" ? (
              <Badge color={STATE_COLOR[task.tracking_state] ?? "grey"} data-testid="lastmile-task-state">
                {task.cancellation ? "Cancelled in Medusa" : shown(task.service_status ?? task.tracking_state, 100)}
              </Badge>
            ) : (
              <Badge color={task.status === "needs_attention" ? "red" : "orange"}>{BOOKING_WORDS[task.status]}</Badge>
            )}
          </div>
          <ChargedAndBooked task={task} />
          {task.collection && (
            <CollectionBlock task={task} collection={task.collection} onTask={putTask} onChanged={reload} />
          )}
          {task.name && task.origin !== "order" && (
            <Text size="small" className="text-ui-fg-subtle">
              Booked as “{shown(task.name)}”
            </Text>
          )}
          {httpLink(task.tracking_url) && (
            <Text size="small">
              Tracking{" "}
              <a
                href={httpLink(task.tracking_url)}
                target="_blank"
                rel="noreferrer"
                className="text-ui-fg-base underline"
                data-testid="lastmile-tracking-link"
              >
                {shown(task.tracking_id ?? task.tracking_url, 100)}
              </a>
            </Text>
          )}
          {task.last_error && task.status !== "booked" && (
            <Text size="small" className="text-ui-fg-error">
              {shown(task.last_error, 500)}
              {task.next_attempt_at ? ` Next attempt ${new Date(task.next_attempt_at).toLocaleTimeString()}.` : ""}
            </Text>
          )}
          {task.notice && (
            <div className="bg-ui-bg-subtle flex flex-col gap-y-1 rounded p-2" data-testid="lastmile-task-notice">
              <Text size="small" className="text-ui-fg-error">
                {shown(task.notice.message, 1000)}
              </Text>
              <Button
                size="small"
                variant="transparent"
                className="self-start"
                onClick={() => act.mutate({ task, action: "notice/dismiss" })}
              >
                Mark as dealt with
              </Button>
            </div>
          )}
          {task.cancel_at_service && !task.collection?.expired && (
            <div className="flex flex-col gap-y-1" data-testid="lastmile-cancel-at-service">
              <Text size="small" className="text-ui-fg-subtle">
                To cancel, cancel task {task.task_id} in the service&apos;s app, then Refresh: Medusa&apos;s fulfillment
                is cancelled once the service reports it.
              </Text>
              <Button size="small" variant="transparent" className="self-start" onClick={() => cancelAnyway(task)}>
                Cancel anyway
              </Button>
            </div>
          )}
          {task.cancellation && <CancellationLine cancellation={task.cancellation} />}
          {task.unmapped_status && (
            <Text size="small" className="text-ui-fg-subtle">
              The service reported “{shown(task.unmapped_status, 100)}”, which the status table does not know (add it to
              status_map).
            </Text>
          )}
          {(task.status === "failed" || task.status === "needs_attention") && (
            <Button
              size="small"
              variant="secondary"
              className="self-start"
              isLoading={act.isPending}
              onClick={() => act.mutate({ task, action: "retry" })}
            >
              Retry booking
            </Button>
          )}
          <ol className="text-ui-fg-subtle text-xs">
            {task.history.map((entry, i) => (
              <li key={i}>
                {new Date(entry.at).toLocaleString()} · {shown(entry.value, 100)}
                {entry.source ? ` (${entry.source})` : ""}
                {entry.actor_id && (
                  <>
                    {" "}
                    by <ActorName id={entry.actor_id} />
                  </>
                )}
                {entry.detail ? ` · ${shown(entry.detail, 300)}` : ""}
              </li>
            ))}
          </ol>
        </div>
      ))}
    </Container>
  )
}

/** How Medusa's side of the task was cancelled, and by whom. */
function CancellationLine({ cancellation }: { cancellation: TaskCancellation }) {
  return (
    <Text
      size="small"
      className="text-ui-fg-subtle"
      data-testid="lastmile-cancellation"
      data-reason={cancellation.reason ?? ""}
    >
      {cancellation.by === "service" ? (
        "The service reported it cancelled: Medusa's fulfillment was cancelled."
      ) : cancellation.reason === "not_collected" ? (
        <>
          Cancelled as not collected by <ActorName id={cancellation.actor_id} />: Medusa&apos;s fulfillment was
          cancelled and the stock came back.
        </>
      ) : (
        <>
          Cancelled in Medusa by <ActorName id={cancellation.actor_id} /> while the service showed{" "}
          {shown(cancellation.service_status ?? "no status", 100)}.
        </>
      )}
    </Text>
  )
}

export const config = defineWidgetConfig({ zone: "order.details.side.after" })

export default LastmileOrderWidget
