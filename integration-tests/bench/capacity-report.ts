/**
 * The capacity benchmarks' report: a curve as a Markdown table, a capacity in words, and a section of BENCHMARKS.md
 * written in place (a part run alone replaces its own section; `npm run bench` starts the file afresh).
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs"
import { type Curve, SERVICE_LEVEL, type StepResult } from "./open-loop"

const FILE = "BENCHMARKS.md"

export const ms = (v: number): string => (Number.isFinite(v) ? `${v.toFixed(v < 10 ? 1 : 0)} ms` : "—")

/** A rate as a table shows it. */
export const perSecond = (rate: number): string => `${Number(rate.toPrecision(3))}/s`

const share = (s: StepResult) => `${s.failures} (${(100 * s.failureShare).toFixed(s.failureShare < 0.01 ? 2 : 1)}%)`

/** One curve: a row per rate tried, with the level's verdict. `unit` names what one sample is (a step, a request). */
export function curveTable(curve: Curve, unit: string, extra?: { title: string; cell: (s: StepResult) => string }) {
  const head = `| Arrivals a second | Arrivals | ${unit} timed | p50 | p95 | p99 | Failures | CPU ms per arrival |${extra ? ` ${extra.title} |` : ""} Level |`
  const rule = `|---|---|---|---|---|---|---|---|${extra ? "---|" : ""}---|`
  const rows = curve.steps.map(
    (s) =>
      `| ${perSecond(s.rate)} | ${s.arrivals} | ${s.samples} | ${ms(s.p50)} | ${ms(s.p95)} | ${ms(s.p99)} | ${share(s)} | ${s.cpuMsPerArrival === null ? "—" : s.cpuMsPerArrival.toFixed(0)} |${extra ? ` ${extra.cell(s)} |` : ""} ${s.held ? "held" : "**broke**"} |`
  )
  return [head, rule, ...rows].join("\n")
}

/** p50 / p95 of each kind of request (rows) at each rate tried (columns). */
export function kindTable(curve: Curve): string {
  const kinds = [...new Set(curve.steps.flatMap((s) => Object.keys(s.byKind)))]
  const head = `| Request | ${curve.steps.map((s) => `${perSecond(s.rate)} p50 / p95`).join(" | ")} |`
  const rule = `|---|${curve.steps.map(() => "---").join("|")}|`
  const rows = kinds.map(
    (kind) =>
      `| ${kind} | ${curve.steps.map((s) => (s.byKind[kind] ? `${ms(s.byKind[kind].p50)} / ${ms(s.byKind[kind].p95)}` : "—")).join(" | ")} |`
  )
  return [head, rule, ...rows].join("\n")
}

/** The capacity in words: the highest rate that held, and where the level broke. */
export function capacityText(curve: Curve): string {
  const lowest = curve.steps[0]?.rate
  if (curve.capacity === 0) {
    return `below ${perSecond(lowest ?? 0)} (the lowest rate tried broke the level)`
  }
  return `**${perSecond(curve.capacity)}**${curve.brokeAt === null ? " (no rate tried broke the level)" : ` (broke at ${perSecond(curve.brokeAt)})`}`
}

/** A ratio of two capacities, with what it rests on. */
export function capacityRatio(ours: Curve, theirs: Curve): number | null {
  if (theirs.capacity === 0) {
    return ours.capacity === 0 ? null : Number.POSITIVE_INFINITY
  }
  return ours.capacity / theirs.capacity
}

/** The ratio in words: a lower bound when `ours` never broke (its capacity lies above the highest rate tried). */
export function ratioText(ours: Curve, theirs: Curve): string {
  const ratio = capacityRatio(ours, theirs)
  if (ratio === null) {
    return "— (neither held the level at any rate tried)"
  }
  if (!Number.isFinite(ratio)) {
    return "∞ (the other held the level at no rate tried)"
  }
  const bound = ours.brokeAt === null ? "≥ " : theirs.brokeAt === null ? "≤ " : ""
  return `${bound}${ratio.toFixed(2)}×`
}

export const levelText = `p95 ≤ ${SERVICE_LEVEL.p95Ms} ms and failures ≤ ${100 * SERVICE_LEVEL.failureShare}%`

/**
 * Writes `## heading` and its text into BENCHMARKS.md: in place of a section of that heading (up to the next `## `),
 * else at the end.
 */
export function writeSection(heading: string, text: string): void {
  const current = existsSync(FILE) ? readFileSync(FILE, "utf8") : "# Benchmarks\n"
  const section = `## ${heading}\n\n${text.trim()}\n`
  const at = current.indexOf(`\n## ${heading}\n`)
  if (at < 0) {
    writeFileSync(FILE, `${current.trimEnd()}\n\n${section}`)
    return
  }
  const next = current.indexOf("\n## ", at + 1)
  const rest = next < 0 ? "" : current.slice(next)
  writeFileSync(FILE, `${current.slice(0, at)}\n${section}${rest}`)
}
