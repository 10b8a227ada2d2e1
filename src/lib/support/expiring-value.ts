/** A value read at most once per `ttlMs` (concurrent readers share one read); a failed read is not kept. */
export class ExpiringValue<T> {
  private held: { at: number; value: Promise<T> } | undefined

  constructor(
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now
  ) {}

  get(load: () => Promise<T>): Promise<T> {
    const at = this.now()
    if (!this.held || at - this.held.at > this.ttlMs) {
      const value = load()
      const held = { at, value }
      this.held = held
      value.catch(() => {
        if (this.held === held) {
          this.held = undefined
        }
      })
    }
    return this.held.value
  }

  /** A value read elsewhere just now: held as if this had read it. */
  set(value: T): void {
    this.held = { at: this.now(), value: Promise.resolve(value) }
  }

  /** The value changed: the next `get` reads it again. */
  clear(): void {
    this.held = undefined
  }
}
