/**
 * The rooms' rules (ARCHITECTURE.md's table), checked on the source: which
 * room may import which, no import cycle, nothing but Medusa's loader and
 * tests reaching into the provider, no outcome read from an error's message
 * text, and the few unchecked double casts left each saying why.
 */
import { readFileSync, readdirSync, statSync } from "node:fs"
import { dirname, join, normalize, relative } from "node:path"

const SRC = join(__dirname, "..")

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) {
      return name === "__tests__" ? [] : sourceFiles(path)
    }
    return /\.tsx?$/.test(name) ? [path] : []
  })
}

const files = sourceFiles(SRC).map((path) => ({ path: relative(SRC, path), text: readFileSync(path, "utf8") }))
const production = files.filter((f) => !f.path.startsWith("test-support/"))
const known = new Set(files.map((f) => f.path))

interface Import {
  spec: string
  typeOnly: boolean
  /** The project file it names (relative to src), when it names one. */
  target: string | null
}

function importsOf(file: { path: string; text: string }): Import[] {
  // A statement ends where the next one begins: the source has no semicolons.
  const statement =
    /(import|export)\s+(type\s+)?(?:(?!\n(?:import|export)\b)[^;])*?from\s+["']([^"']+)["']|import\(["']([^"']+)["']\)/g
  return [...file.text.matchAll(statement)].map((m) => {
    const spec = m[3] ?? m[4]
    return { spec, typeOnly: !!m[2], target: spec.startsWith(".") ? resolveTarget(file.path, spec) : null }
  })
}

function resolveTarget(from: string, spec: string): string | null {
  const base = normalize(join(dirname(from), spec))
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, join(base, "index.ts")]) {
    if (known.has(candidate)) {
      return candidate
    }
  }
  return base.startsWith("..") ? base : null
}

/**
 * The rooms, each with the project rooms it may import (prefixes of src).
 * The order is the table's: a room imports rooms below it, never above.
 */
const ROOMS: { room: string; may: string[]; typesOnly?: string[] }[] = [
  { room: "admin/", may: ["admin/"], typesOnly: ["lib/lastmile/admin-api"] },
  { room: "api/", may: ["api/", "workflows/", "modules/", "lib/"] },
  { room: "subscribers/", may: ["subscribers/", "workflows/", "modules/", "lib/"] },
  { room: "jobs/", may: ["jobs/", "workflows/", "modules/", "lib/"] },
  { room: "links/", may: ["links/", "modules/", "lib/"] },
  { room: "workflows/", may: ["workflows/", "modules/", "lib/"] },
  { room: "providers/", may: ["providers/", "lib/lastmile/", "lib/service-client/"] },
  { room: "modules/", may: ["modules/", "lib/"] },
  { room: "lib/checkout/", may: ["lib/checkout/", "lib/lastmile/"] },
  { room: "lib/reads/", may: ["lib/reads/", "lib/lastmile/"] },
  { room: "lib/booking/", may: ["lib/booking/", "lib/lastmile/", "lib/service-client/"] },
  { room: "lib/tracking/", may: ["lib/tracking/", "lib/lastmile/"] },
  { room: "lib/service-client/", may: ["lib/service-client/", "lib/lastmile/"] },
  { room: "lib/lastmile/", may: ["lib/lastmile/"] },
  // The storefront entry re-exports the storefront package (packages/storefront), which imports nothing of the plugin.
  { room: "storefront/", may: ["storefront/"] },
  { room: "simulator/", may: ["simulator/"], typesOnly: ["lib/service-client/", "lib/lastmile/"] },
]

describe("the rooms of the source", () => {
  it("puts every source file in a room of the table", () => {
    const homeless = production.filter((f) => !ROOMS.some((r) => f.path.startsWith(r.room)))
    expect(homeless.map((f) => f.path).filter((p) => p !== "modules/lastmile/types.ts")).toEqual([])
  })

  it.each(ROOMS.map((r) => [r.room, r] as const))("lets %s import only the rooms below it", (_room, rule) => {
    const offending = production
      .filter((f) => f.path.startsWith(rule.room))
      .flatMap((f) =>
        importsOf(f)
          .filter(({ target }) => target !== null)
          .filter(({ target, typeOnly }) => {
            const allowed = rule.may.some((prefix) => target!.startsWith(prefix))
            const typeAllowed = typeOnly && (rule.typesOnly ?? []).some((prefix) => target!.startsWith(prefix))
            return !allowed && !typeAllowed
          })
          .map(({ spec, typeOnly }) => `${f.path} imports ${typeOnly ? "type " : ""}${spec}`)
      )
    expect(offending).toEqual([])
  })

  it("keeps the domain room and the client free of Medusa", () => {
    const offending = production
      .filter((f) =>
        ["lib/lastmile/", "lib/service-client/", "lib/booking/", "lib/tracking/"].some((r) => f.path.startsWith(r))
      )
      .flatMap((f) =>
        importsOf(f)
          .filter(({ spec }) => spec.startsWith("@medusajs/"))
          .map(({ spec }) => `${f.path} imports ${spec}`)
      )
    expect(offending).toEqual([])
  })

  it("has no import cycle", () => {
    const graph = new Map(
      production.map((f) => [
        f.path,
        importsOf(f).flatMap(({ target, typeOnly }) => (target && !typeOnly ? [target] : [])),
      ])
    )
    const cycles: string[] = []
    const state = new Map<string, "open" | "done">()
    const visit = (node: string, trail: string[]) => {
      if (state.get(node) === "done") {
        return
      }
      if (state.get(node) === "open") {
        cycles.push([...trail.slice(trail.indexOf(node)), node].join(" → "))
        return
      }
      state.set(node, "open")
      for (const next of graph.get(node) ?? []) {
        visit(next, [...trail, node])
      }
      state.set(node, "done")
    }
    for (const node of graph.keys()) {
      visit(node, [])
    }
    expect(cycles).toEqual([])
  })

  it("lets nothing but Medusa's loader and tests import the provider", () => {
    const offending = production
      .filter((f) => !f.path.startsWith("providers/"))
      .flatMap((f) =>
        importsOf(f)
          .filter(({ target }) => target?.startsWith("providers/"))
          .map(({ spec }) => `${f.path} imports ${spec}`)
      )
    expect(offending).toEqual([])
  })

  it("registers hooks only in hook files, whose helpers live below", () => {
    const registrations = production.filter((f) => /\.hooks\.\w+\(/.test(f.text)).map((f) => f.path)
    expect(registrations.every((path) => path.startsWith("workflows/hooks/"))).toBe(true)
    const importedHookFiles = production.flatMap((f) =>
      importsOf(f)
        .filter(({ target }) => target?.startsWith("workflows/hooks/"))
        .map(({ spec }) => `${f.path} imports ${spec}`)
    )
    expect(importedHookFiles).toEqual([])
  })

  it("never decides an outcome by an error's message text", () => {
    const reads = /(message|errorMessage\([^)]*\))\??\.(includes|startsWith|endsWith|match|indexOf)\(/
    const compares = /\bmessage\s*[!=]==?\s*["'`]/
    const offending = production
      .filter((f) => !f.path.startsWith("simulator/"))
      .flatMap((f) =>
        f.text
          .split("\n")
          .map((line, i) => ({ line, at: `${f.path}:${i + 1}` }))
          // A typeof check of a message's type is not a decision on its text.
          .filter(({ line }) => reads.test(line) || (compares.test(line) && !line.includes("typeof")))
          .map(({ at, line }) => `${at}: ${line.trim()}`)
      )
    expect(offending).toEqual([])
  })

  it("has at most three unchecked double casts, each with its reason on the line before", () => {
    const casts = production.flatMap((f) =>
      f.text
        .split("\n")
        .flatMap((line, i, lines) =>
          line.includes("as unknown as") ? [{ at: `${f.path}:${i + 1}`, reason: lines[i - 1]?.trim() ?? "" }] : []
        )
    )
    expect(casts.length).toBeLessThanOrEqual(3)
    expect(casts.filter((c) => !c.reason.startsWith("//")).map((c) => c.at)).toEqual([])
  })
})
