import { defineWidgetConfig } from "@medusajs/admin-sdk"
import type { AdminOrder, DetailWidgetProps } from "@medusajs/framework/types"
import { Badge, Button, Container, Heading, Text, toast } from "@medusajs/ui"
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query"
import { type TaskView, sdk } from "../lib/sdk"

const BOOKING_WORDS: Record<string, string> = {
  pending: "Waiting to be booked",
  booking: "Booking…",
  booked: "Booked",
  failed: "Booking failed, retrying automatically",
  needs_attention: "Needs your decision",
}

const STATE_COLOR: Record<string, "grey" | "blue" | "green" | "red"> = {
  awaiting: "grey",
  shipped: "blue",
  delivered: "green",
  cancelled: "red",
}

const LastmileOrderWidget = ({ data: order }: DetailWidgetProps<AdminOrder>) => {
  const client = useQueryClient()
  const key = ["lastmile", "order", order.id]
  const { data } = useQuery({
    queryKey: key,
    queryFn: () => sdk.client.fetch<{ tasks: TaskView[] }>(`/admin/lastmile/orders/${order.id}`),
  })
  const action = useMutation({
    mutationFn: (kind: "retry" | "refresh") =>
      sdk.client.fetch<{ tasks: TaskView[] }>(`/admin/lastmile/orders/${order.id}/${kind}`, { method: "POST" }),
    onSuccess: (result) => {
      client.setQueryData(key, { tasks: result.tasks })
      client.invalidateQueries({ queryKey: ["orders"] })
    },
    onError: (error: Error) => toast.error(error.message),
  })
  const tasks = data?.tasks ?? []
  if (!tasks.length) {
    return null
  }
  return (
    <Container className="divide-y p-0" data-testid="lastmile-order-widget">
      <div className="flex items-center justify-between px-6 py-4">
        <Heading level="h2">Lastmile</Heading>
        <div className="flex gap-x-2">
          {tasks.some((t) => t.kind === "delivery" && t.status !== "booked") && (
            <Button
              size="small"
              variant="secondary"
              isLoading={action.isPending}
              onClick={() => action.mutate("retry")}
            >
              Retry booking
            </Button>
          )}
          {tasks.some((t) => t.status === "booked") && (
            <Button
              size="small"
              variant="secondary"
              isLoading={action.isPending}
              onClick={() => action.mutate("refresh")}
            >
              Refresh status
            </Button>
          )}
        </div>
      </div>
      {tasks.map((task) => (
        <div key={task.id} className="flex flex-col gap-y-2 px-6 py-4">
          <div className="flex items-center justify-between">
            <Text size="small" weight="plus">
              {task.kind === "delivery" ? "Delivery" : "Return"} {task.task_id ? `· task ${task.task_id}` : ""}
            </Text>
            {task.status === "booked" ? (
              <Badge color={STATE_COLOR[task.tracking_state] ?? "grey"} data-testid="lastmile-task-state">
                {task.service_status ?? task.tracking_state}
              </Badge>
            ) : (
              <Badge color={task.status === "needs_attention" ? "red" : "orange"}>{BOOKING_WORDS[task.status]}</Badge>
            )}
          </div>
          {task.tracking_url && (
            <Text size="small">
              Tracking{" "}
              <a
                href={task.tracking_url}
                target="_blank"
                rel="noreferrer"
                className="text-ui-fg-interactive"
                data-testid="lastmile-tracking-link"
              >
                {task.tracking_id ?? task.tracking_url}
              </a>
            </Text>
          )}
          {task.last_error && task.status !== "booked" && (
            <Text size="small" className="text-ui-fg-error">
              {task.last_error}
              {task.next_attempt_at ? ` Next attempt ${new Date(task.next_attempt_at).toLocaleTimeString()}.` : ""}
            </Text>
          )}
          {task.unmapped_status && (
            <Text size="small" className="text-ui-fg-subtle">
              The service reported “{task.unmapped_status}”, which the status table does not know (add it to
              status_map).
            </Text>
          )}
          <ol className="text-ui-fg-subtle text-xs">
            {task.history.map((entry, i) => (
              <li key={i}>
                {new Date(entry.at).toLocaleString()} · {entry.value}
                {entry.source ? ` (${entry.source})` : ""}
                {entry.detail ? ` · ${entry.detail}` : ""}
              </li>
            ))}
          </ol>
        </div>
      ))}
    </Container>
  )
}

export const config = defineWidgetConfig({ zone: "order.details.side.after" })

export default LastmileOrderWidget
