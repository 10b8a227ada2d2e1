/**
 * When the service refuses quotes (a wrong key, a request it rejects, an
 * answer it should not give), every cart would say so. The merchant gets one
 * actionable line per cause per interval instead, naming the cause by its
 * code and status and never the key.
 */
import { LastmileError, describeRefusal } from "../../lib/service-client"

export class RefusalLog {
  private readonly lastAt = new Map<string, number>()

  constructor(
    private readonly intervalMs: number,
    private readonly now: () => number = Date.now
  ) {}

  warn(logger: { warn(message: string): void }, error: unknown): void {
    const cause = error instanceof LastmileError ? `${error.code}:${error.status ?? ""}` : "other"
    const at = this.now()
    const last = this.lastAt.get(cause)
    if (last !== undefined && at - last < this.intervalMs) {
      return
    }
    this.lastAt.set(cause, at)
    logger.warn(
      `lastmile: the service refused a checkout quote, so lastmile options are unavailable until this is fixed: ${describeRefusal(error)}`
    )
  }
}
