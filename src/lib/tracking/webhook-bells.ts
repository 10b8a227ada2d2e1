/**
 * The webhook's bells (decision 14): the event that has a worker re-read a task, rung after the answer, throttled per
 * task by the run coalescer; a bell that cannot ring is warned about once a minute, its events left for the poll.
 */
import { RunCoalescer } from "../support/run-coalescer"
import { ThrottledLog } from "../support/throttled-log"

/** The event a bell rings: a worker re-reads the task (the webhook-received subscriber). */
export const WEBHOOK_RECEIVED_EVENT = "lastmile.webhook.received"

export interface BellData {
  id: string
  lastmile_task_id: string
}

export interface WebhookBellsOptions {
  /** Emits the bell event; may reject (the event bus is down). */
  emit: (data: BellData) => Promise<unknown>
  logger: { warn(message: string): void }
  windowMs?: number
}

export class WebhookBells {
  private readonly runs = new RunCoalescer<void>()
  /** The latest post of each task not rung yet. */
  private readonly latest = new Map<string, BellData>()
  private readonly warnings: ThrottledLog
  private readonly windowMs: number
  private closed = false

  constructor(private readonly options: WebhookBellsOptions) {
    this.warnings = new ThrottledLog(options.logger, 60_000)
    this.windowMs = options.windowMs ?? 1000
  }

  ring(data: BellData): void {
    if (this.closed) {
      return
    }
    const task = data.lastmile_task_id
    this.latest.set(task, data)
    void this.runs.request(task, async () => {
      const bell = this.latest.get(task)
      this.latest.delete(task)
      if (!bell || this.closed) {
        return
      }
      // After the answer has gone: the emit's own work is not the post's.
      await new Promise((resolve) => setImmediate(resolve))
      await this.options
        .emit(bell)
        .catch((error: unknown) =>
          this.warnings.warn(
            "bell",
            `lastmile: webhook bell for task ${task} not rung (${error instanceof Error ? error.name : "error"}); the polling job processes stored webhook events within a minute`
          )
        )
      await new Promise((resolve) => setTimeout(resolve, this.windowMs).unref())
    })
  }

  /** Stops ringing (at shutdown): bells not rung are left to the polling job. */
  close(): void {
    this.closed = true
    this.latest.clear()
  }
}
