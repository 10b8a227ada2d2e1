/**
 * The webhook's bells: the event that has a worker re-read a task is rung
 * after the answer, at most once per task per window (the first post of a
 * burst rings at once, later ones once more at the window's end), since one
 * re-read settles every event stored before it and an emit costs a Redis
 * write plus Medusa's cache invalidation. A bell that cannot be rung is
 * warned about once a minute, not once per task: its events stay stored, and
 * the polling job processes them.
 */
import { ThrottledLog } from "../support/throttled-log"

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
  private readonly windows = new Map<string, { pending?: BellData; timer?: NodeJS.Timeout }>()
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
    const open = this.windows.get(data.lastmile_task_id)
    if (open) {
      open.pending = data
      return
    }
    const window: { pending?: BellData; timer?: NodeJS.Timeout } = {}
    this.windows.set(data.lastmile_task_id, window)
    // After the answer has gone: the emit's own work is not the post's.
    setImmediate(() => {
      this.options
        .emit(data)
        .catch((error: unknown) =>
          this.warnings.warn(
            "bell",
            `lastmile: webhook bell for task ${data.lastmile_task_id} not rung (${error instanceof Error ? error.name : "error"}); the polling job processes stored webhook events within a minute`
          )
        )
    })
    window.timer = setTimeout(() => {
      this.windows.delete(data.lastmile_task_id)
      if (window.pending) {
        this.ring(window.pending)
      }
    }, this.windowMs)
    window.timer.unref()
  }

  /** Stops ringing (at shutdown): bells not rung are left to the polling job. */
  close(): void {
    this.closed = true
    for (const window of this.windows.values()) {
      clearTimeout(window.timer)
    }
    this.windows.clear()
  }
}
