/**
 * Runs coalesced per key within a process: while one runs, at most one more is queued and later requests join it, so
 * a burst costs one or two runs and the last sees every change.
 */
interface Flight<T> {
  running: Promise<T>
  queued?: Promise<T>
}

export class RunCoalescer<T> {
  private readonly flights = new Map<string, Flight<T>>()

  request(key: string, run: () => Promise<T>): Promise<T> {
    const flight = this.flights.get(key)
    if (!flight) {
      const running = run().finally(() => {
        const current = this.flights.get(key)
        if (current?.queued) {
          this.flights.set(key, { running: current.queued })
        } else {
          this.flights.delete(key)
        }
      })
      this.flights.set(key, { running })
      return running
    }
    if (!flight.queued) {
      const queued = flight.running
        .catch(() => undefined)
        .then(run)
        .finally(() => {
          if (this.flights.get(key)?.running === queued) {
            this.flights.delete(key)
          }
        })
      flight.queued = queued
    }
    return flight.queued
  }

  /** Runs still under way or queued, for a shutdown to wait on. */
  pending(): Promise<unknown>[] {
    return [...this.flights.values()].flatMap((f) => [f.running, ...(f.queued ? [f.queued] : [])])
  }
}
