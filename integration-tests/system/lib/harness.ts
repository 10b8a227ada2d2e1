/** Small pieces the install, cluster and reliability harnesses share. */

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Polls `probe` until it returns a value; throws after `timeoutMs`. */
export async function until<T>(what: string, timeoutMs: number, probe: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await probe().catch(() => undefined)
    if (value !== undefined) {
      return value
    }
    if (Date.now() > deadline) {
      throw new Error(`${what}: not within ${timeoutMs / 1000} s`)
    }
    await sleep(500)
  }
}

/** Runs `count` jobs, `concurrency` at a time. */
export async function inParallel(count: number, concurrency: number, job: (i: number) => Promise<void>): Promise<void> {
  let next = 0
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let i = next++; i < count; i = next++) {
        await job(i)
      }
    })
  )
}

export interface Check {
  name: string
  ok: boolean
  figure: string
}

/** A list of named results, printed as they come and summed up as `N passed, N failed`. */
export class Checks {
  readonly all: Check[] = []

  constructor(private readonly say: (line: string) => void) {}

  record(name: string, ok: boolean, figure: string): void {
    this.all.push({ name, ok, figure })
    this.say(`${ok ? "ok  " : "FAIL"} ${name}: ${figure}`)
  }

  get failed(): number {
    return this.all.filter((c) => !c.ok).length
  }

  summary(): string {
    return `${this.all.length - this.failed} passed, ${this.failed} failed`
  }

  table(): string {
    return `| Check | Result | Figures |\n|---|---|---|\n${this.all
      .map((c) => `| ${c.name} | ${c.ok ? "passed" : "FAILED"} | ${c.figure.replace(/\|/g, "/")} |`)
      .join("\n")}`
  }
}

/** The order a booking POST logged by the simulator was for. */
export function bookedOrderOf(entry: { body: unknown }): string {
  const body = entry.body as { order?: { merchantOrderId?: string } } | undefined
  return String(body?.order?.merchantOrderId)
}
