/**
 * Delivers status-change webhooks like the service does: a POST per change,
 * repeated with backoff until the receiver answers 200.
 */
import { Agent } from "undici"
import { shownTaskType } from "./task-view"
import type { SimTask, SimulatorConfig, WebhookAttempt } from "./types"
import { signWebhookBody } from "./webhook-signature"

interface Pending {
  url: string
  body: string
  taskId: number
  value: string
  attempt: number
}

export class WebhookSender {
  readonly attempts: WebhookAttempt[] = []
  private readonly agent = new Agent({ keepAliveTimeout: 1000, connect: { timeout: 2000 } })
  private readonly timers = new Set<NodeJS.Timeout>()
  private inFlight = 0
  private waiters: (() => void)[] = []
  private eventSeq = 0
  private stopped = false

  constructor(private readonly config: () => SimulatorConfig) {}

  statusChanged(task: SimTask, now: number): void {
    const config = this.config()
    if (!config.webhookUrl) {
      return
    }
    this.eventSeq++
    const body =
      config.webhook.payload === "minimal"
        ? { taskId: task.taskId }
        : {
            eventId: `evt_${task.taskId}_${this.eventSeq}`,
            type: "task.status_changed",
            occurredAt: new Date(now).toISOString(),
            taskId: task.taskId,
            taskType: shownTaskType(task, config),
            trackingId: task.trackingId,
            merchantOrderId: task.merchantOrderId,
            status: { taskId: task.taskId, value: task.status.value },
          }
    this.dispatch({
      url: config.webhookUrl,
      body: JSON.stringify(body),
      taskId: task.taskId,
      value: task.status.value,
      attempt: 1,
    })
  }

  /** Resolves when no delivery is pending or in flight. */
  async idle(): Promise<void> {
    if (this.inFlight === 0) {
      return
    }
    await new Promise<void>((resolve) => this.waiters.push(resolve))
  }

  async stop(): Promise<void> {
    this.stopped = true
    for (const timer of this.timers) {
      clearTimeout(timer)
    }
    this.timers.clear()
    this.inFlight = 0
    this.release()
    await this.agent.close()
  }

  private dispatch(pending: Pending): void {
    this.inFlight++
    void this.send(pending)
  }

  private async send(pending: Pending): Promise<void> {
    if (this.stopped) {
      return
    }
    const url = new URL(pending.url)
    const { signingSecret, signatureHeader } = this.config().webhook
    const signature: Record<string, string> = signingSecret
      ? { [signatureHeader ?? "x-lastmile-signature"]: signWebhookBody(pending.body, signingSecret) }
      : {}
    let status: number | null = null
    let error: string | undefined
    try {
      const response = await this.agent.request({
        origin: url.origin,
        path: `${url.pathname}${url.search}`,
        method: "POST",
        headers: { "content-type": "application/json", "user-agent": "lastmile-simulator-webhooks", ...signature },
        body: pending.body,
        headersTimeout: 5000,
        bodyTimeout: 5000,
      })
      status = response.statusCode
      await response.body.dump()
    } catch (e) {
      error = e instanceof Error ? e.message : String(e)
    }
    if (this.stopped) {
      return
    }
    this.attempts.push({
      taskId: pending.taskId,
      value: pending.value,
      attempt: pending.attempt,
      status,
      error,
      at: new Date().toISOString(),
    })
    const { retryBaseMs, retryMaxMs, maxAttempts } = this.config().webhook
    if (status === 200 || pending.attempt >= maxAttempts) {
      this.finish()
      return
    }
    const delay = Math.min(retryMaxMs, retryBaseMs * 2 ** (pending.attempt - 1))
    const timer = setTimeout(() => {
      this.timers.delete(timer)
      void this.send({ ...pending, attempt: pending.attempt + 1 })
    }, delay)
    this.timers.add(timer)
  }

  private finish(): void {
    this.inFlight = Math.max(0, this.inFlight - 1)
    if (this.inFlight === 0) {
      this.release()
    }
  }

  private release(): void {
    const waiters = this.waiters
    this.waiters = []
    waiters.forEach((resolve) => resolve())
  }
}
