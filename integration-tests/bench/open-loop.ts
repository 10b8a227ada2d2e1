/**
 * Open-loop load for the capacity benchmarks (issue 42): Poisson arrivals independent of the answers, each request
 * timed from its scheduled arrival, and a rising schedule of rates that stops where the service level breaks.
 */
import { Pool } from "undici"
import { percentile } from "../helpers/percentile"

/** Shopify's bar for a checkout's rate callback: p95 ≤ 500 ms with at most 0.1% failures, over sustained traffic. */
export const SERVICE_LEVEL = { p95Ms: 500, failureShare: 0.001 }

export interface CapacitySettings {
  /** Seconds of arrivals per rate (BENCH_CAPACITY_STEP_S, default 30). */
  stepSeconds: number
  /** The rising schedule, arrivals a second. */
  rates: number[]
  /** Steps tried between the last rate that held and the first that broke, halving the gap each time (log scale). */
  refine: number
  /** Rates run past the first that broke, to show it (at most 1). */
  beyond: number
  /** A request not answered within this is a failure. */
  timeoutMs: number
}

const numbers = (text: string | undefined): number[] | undefined =>
  text
    ?.split(",")
    .map((v) => Number(v.trim()))
    .filter((v) => Number.isFinite(v) && v > 0)

/** The settings from the environment: `ratesVariable` names the schedule's own variable (a comma-separated list). */
export function capacitySettings(ratesVariable: string, defaultRates: number[]): CapacitySettings {
  const env = process.env
  return {
    stepSeconds: Number(env.BENCH_CAPACITY_STEP_S ?? 30),
    rates: numbers(env[ratesVariable])?.sort((a, b) => a - b) ?? defaultRates,
    refine: Number(env.BENCH_CAPACITY_REFINE ?? 1),
    beyond: Math.min(1, Number(env.BENCH_CAPACITY_BEYOND ?? 0)),
    timeoutMs: Number(env.BENCH_CAPACITY_TIMEOUT_MS ?? 10_000),
  }
}

/** The settings as one sentence for the report. */
export function describeSettings(settings: CapacitySettings): string {
  return `${settings.stepSeconds} s of arrivals per rate, rates ${settings.rates.join(", ")} a second rising until the level breaks${settings.beyond ? " (and one more)" : ""}, then ${settings.refine} step${settings.refine === 1 ? "" : "s"} between the last rate that held and the first that broke (half the lowest rate when that one broke); a request unanswered after ${settings.timeoutMs / 1000} s is a failure`
}

/** A small deterministic generator, mulberry32 (the same schedule for every path at one rate). */
function uniform(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return (((t ^ (t >>> 14)) >>> 0) + 0.5) / 4_294_967_296
  }
}

/** Arrival times (ms from the step's start) of a Poisson process of `rate` a second over `seconds`. */
export function poissonArrivals(rate: number, seconds: number, seed = Math.round(rate * 1000) + 42): number[] {
  const next = uniform(seed)
  const times: number[] = []
  for (let t = -Math.log(next()) / rate; t < seconds; t += -Math.log(next()) / rate) {
    times.push(t * 1000)
  }
  return times
}

/** What one arrival reports: each of its requests' latency and whether it succeeded; `failed` counts the unsent. */
export interface Recorder {
  /** `kind` names the request (a session's step) for the per-request breakdown. */
  sample(latencyMs: number, ok: boolean, kind?: string): void
  /** Planned requests that were never sent (the session stopped at an earlier failure). */
  unsent(count: number): void
  /** A figure of the arrival's own (quotes, orders), summed over the step. */
  count(name: string, n?: number): void
}

export interface StepResult {
  rate: number
  arrivals: number
  /** Requests timed (successes and failures with their time). */
  samples: number
  failures: number
  failureShare: number
  p50: number
  p95: number
  p99: number
  held: boolean
  /** From the first arrival to the last answer. */
  wallMs: number
  /** The most arrivals under way at once. */
  maxInFlight: number
  /** CPU time of the measured processes over the step, per arrival (when a probe was given). */
  cpuMsPerArrival: number | null
  counts: Record<string, number>
  /** p50 and p95 by kind of request, when the arrivals named them. */
  byKind: Record<string, { n: number; p50: number; p95: number }>
}

/**
 * Runs the arrivals: each starts at its scheduled time whatever the earlier ones are doing (open loop), and is handed
 * that time so it measures from it. Resolves when every arrival has ended (each request is bounded by the timeout).
 */
export async function runArrivals(
  rate: number,
  arrivals: number[],
  arrive: (index: number, scheduledAt: number, record: Recorder) => Promise<void>,
  cpuMs: () => number = processCpuMs
): Promise<StepResult> {
  const latencies: number[] = []
  let failures = 0
  let unsent = 0
  let inFlight = 0
  let maxInFlight = 0
  const counts: Record<string, number> = {}
  const kinds = new Map<string, number[]>()
  const record: Recorder = {
    sample(latencyMs, ok, kind) {
      latencies.push(latencyMs)
      if (kind) {
        kinds.set(kind, [...(kinds.get(kind) ?? []), latencyMs])
      }
      if (!ok) {
        failures++
      }
    },
    unsent(count) {
      unsent += count
    },
    count(name, n = 1) {
      counts[name] = (counts[name] ?? 0) + n
    },
  }
  const cpuBefore = cpuMs()
  const start = performance.now() + 50
  const runs = arrivals.map(
    (offset, i) =>
      new Promise<void>((resolve) => {
        const scheduledAt = start + offset
        setTimeout(
          () => {
            inFlight++
            maxInFlight = Math.max(maxInFlight, inFlight)
            arrive(i, scheduledAt, record)
              .catch(() => record.sample(performance.now() - scheduledAt, false))
              .finally(() => {
                inFlight--
                resolve()
              })
          },
          Math.max(0, scheduledAt - performance.now())
        )
      })
  )
  await Promise.all(runs)
  const wallMs = performance.now() - start
  const cpu = cpuMs() - cpuBefore
  const total = latencies.length + unsent
  const failed = failures + unsent
  const p95 = latencies.length ? percentile(latencies, 95) : Number.POSITIVE_INFINITY
  const failureShare = total ? failed / total : 1
  return {
    rate,
    arrivals: arrivals.length,
    samples: latencies.length,
    failures: failed,
    failureShare,
    p50: latencies.length ? percentile(latencies, 50) : Number.POSITIVE_INFINITY,
    p95,
    p99: latencies.length ? percentile(latencies, 99) : Number.POSITIVE_INFINITY,
    held: total > 0 && p95 <= SERVICE_LEVEL.p95Ms && failureShare <= SERVICE_LEVEL.failureShare,
    wallMs,
    maxInFlight,
    cpuMsPerArrival: arrivals.length ? cpu / arrivals.length : null,
    counts,
    byKind: Object.fromEntries(
      [...kinds].map(([kind, values]) => [
        kind,
        { n: values.length, p50: percentile(values, 50), p95: percentile(values, 95) },
      ])
    ),
  }
}

/**
 * Waits until the measured processes are nearly idle (under `share` of one core over a second): the server may still
 * be working through requests a broken step's shoppers gave up on, which would weigh on the next step.
 */
export async function waitForQuiet(
  cpuMs: () => number = processCpuMs,
  share = 0.1,
  timeoutMs = 180_000
): Promise<number> {
  const started = performance.now()
  for (;;) {
    const before = cpuMs()
    await new Promise((resolve) => setTimeout(resolve, 1000))
    const used = cpuMs() - before
    if (used <= share * 1000 || performance.now() - started > timeoutMs) {
      return performance.now() - started
    }
  }
}

/** This process's CPU time (user and system), ms. */
export function processCpuMs(): number {
  const { user, system } = process.cpuUsage()
  return (user + system) / 1000
}

export interface Curve {
  name: string
  steps: StepResult[]
  /** The highest rate whose step held the level; 0 when none did. */
  capacity: number
  /** The lowest rate whose step broke it; null when none did. */
  brokeAt: number | null
}

export interface CurvePath {
  name: string
  /** Runs one step at `rate` over `arrivals` (prepares its carts first, waits for its after-effects last). */
  step(rate: number, arrivals: number[]): Promise<StepResult>
}

function summarise(name: string, steps: StepResult[]): Curve {
  const sorted = [...steps].sort((a, b) => a.rate - b.rate)
  const held = sorted.filter((s) => s.held)
  const broke = sorted.filter((s) => !s.held)
  return {
    name,
    steps: sorted,
    capacity: held.length ? Math.max(...held.map((s) => s.rate)) : 0,
    brokeAt: broke.length ? Math.min(...broke.map((s) => s.rate)) : null,
  }
}

/** The kinds of failure a step saw, for the log. */
export function failureNote(result: StepResult): string {
  const kinds = Object.entries(result.counts).filter(([name]) => name.startsWith("failed: "))
  return kinds.length ? ` (${kinds.map(([name, n]) => `${n}× ${name.slice(8)}`).join("; ")})` : ""
}

/** A rate between two, on a log scale, rounded to what a table shows. */
function between(low: number, high: number): number {
  const mid = low > 0 ? Math.sqrt(low * high) : high / 2
  return Number(mid.toPrecision(2))
}

/**
 * The rising schedule for several paths at once, interleaved rate by rate (so whatever else the machine does weighs on
 * each): a path stops at its first rate that breaks the level (plus `beyond`); then each is refined between its last
 * rate held and its first broken. Every path at a rate sees the same arrival schedule.
 */
export async function rampCapacities(
  settings: CapacitySettings,
  paths: CurvePath[],
  log: (line: string) => void = (line) => process.stdout.write(`${line}\n`)
): Promise<Curve[]> {
  const steps = new Map<string, StepResult[]>(paths.map((p) => [p.name, []]))
  const pastBreak = new Map<string, number>(paths.map((p) => [p.name, -1]))
  const run = async (path: CurvePath, rate: number) => {
    const result = await path.step(rate, poissonArrivals(rate, settings.stepSeconds))
    steps.get(path.name)!.push(result)
    log(
      `capacity: ${path.name} at ${rate}/s: ${result.arrivals} arrivals, p50 ${result.p50.toFixed(0)} ms, p95 ${result.p95.toFixed(0)} ms, failures ${result.failures}/${result.samples} → ${result.held ? "held" : "broke"}${failureNote(result)}`
    )
    for (const [kind, figures] of Object.entries(result.byKind)) {
      log(`capacity:   ${kind}: ${figures.n} timed, p50 ${figures.p50.toFixed(0)} ms, p95 ${figures.p95.toFixed(0)} ms`)
    }
    return result
  }
  for (const rate of settings.rates) {
    for (const path of paths) {
      const past = pastBreak.get(path.name)!
      if (past >= settings.beyond) {
        continue
      }
      const result = await run(path, rate)
      if (!result.held || past >= 0) {
        pastBreak.set(path.name, past + 1)
      }
    }
  }
  for (let round = 0; round < settings.refine; round++) {
    for (const path of paths) {
      const { capacity, brokeAt } = summarise(path.name, steps.get(path.name)!)
      if (brokeAt === null || brokeAt < capacity) {
        continue
      }
      // Broken at the lowest rate tried: half of it, so a ratio against this path has a figure to rest on.
      const rate = between(capacity, brokeAt)
      if (rate <= capacity || rate >= brokeAt) {
        continue
      }
      await run(path, rate)
    }
  }
  return paths.map((p) => summarise(p.name, steps.get(p.name)!))
}

export interface Answer {
  status: number
  body: string
}

/** HTTP/1.1 over keep-alive connections to one origin, never queueing a request behind another's connection. */
export class LoadClient {
  private readonly pool: Pool

  constructor(
    origin: string,
    private readonly headers: Record<string, string>,
    private readonly timeoutMs: number
  ) {
    this.pool = new Pool(origin, { connections: 2048, pipelining: 1, keepAliveTimeout: 4_000 })
  }

  async request(method: "GET" | "POST", path: string, body?: unknown): Promise<Answer> {
    const response = await this.pool.request({
      method,
      path,
      headers: { ...this.headers, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(this.timeoutMs),
      headersTimeout: this.timeoutMs,
      bodyTimeout: this.timeoutMs,
    })
    return { status: response.statusCode, body: await response.body.text() }
  }

  close(): Promise<void> {
    return this.pool.close()
  }
}

/** A request timed from `since` (a scheduled arrival, or the moment the shopper sent it); resolves with its JSON. */
export async function timed<T>(
  record: Recorder,
  since: number,
  send: () => Promise<Answer>,
  accept: (json: T) => boolean = () => true,
  kind?: string
): Promise<T | undefined> {
  try {
    const answer = await send()
    const json = answer.status >= 200 && answer.status < 300 ? (JSON.parse(answer.body) as T) : undefined
    const ok = json !== undefined && accept(json)
    record.sample(performance.now() - since, ok, kind)
    if (!ok) {
      record.count(`failed: ${answer.status} ${answer.body.slice(0, 120)}`)
    }
    return ok ? json : undefined
  } catch (error) {
    record.sample(performance.now() - since, false, kind)
    record.count(`failed: ${error instanceof Error ? error.name : "error"}`)
    return undefined
  }
}
