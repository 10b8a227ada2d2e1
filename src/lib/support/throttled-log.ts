/** A warning at most once per subject per interval, for what every cart would otherwise repeat. */
export class ThrottledLog {
  private readonly lastAt = new Map<string, number>()

  constructor(
    private readonly logger: { warn(message: string): void },
    private readonly intervalMs: number,
    private readonly now: () => number = Date.now
  ) {}

  warn(subject: string, message: string): void {
    const at = this.now()
    const last = this.lastAt.get(subject)
    if (last !== undefined && at - last < this.intervalMs) {
      return
    }
    this.lastAt.set(subject, at)
    this.logger.warn(message)
  }
}
