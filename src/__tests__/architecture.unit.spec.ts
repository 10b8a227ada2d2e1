/**
 * The rooms' rules (ARCHITECTURE.md's table), checked on the source: imports between rooms, no cycle, the provider
 * reached only by Medusa, no outcome read from an error's text, the few double casts each saying why.
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

/** The pure rooms of lib, top to bottom: no Medusa, each importing only the rooms below it. */
const PURE_LIB = [
  "lib/insights/",
  "lib/booking/",
  "lib/store/",
  "lib/checkout/",
  "lib/options/",
  "lib/notifications/",
  "lib/tracking/",
  "lib/collection/",
  "lib/service-client/",
  "lib/money/",
  "lib/address/",
  "lib/support/",
  "lib/contracts/",
]
/** The parts of a lib concern that read Medusa's data (query, a core flow): the only lib files importing Medusa. */
const MEDUSA_LIB = [
  "lib/insights/medusa/",
  "lib/booking/medusa/",
  "lib/notifications/medusa/",
  "lib/checkout/medusa/",
  "lib/store/medusa/",
  "lib/options/medusa/",
  "lib/collection/medusa/",
]
const LIB = [...MEDUSA_LIB, ...PURE_LIB]

/**
 * The rooms, each with the rooms it may import besides itself (types only:
 * prefixes of src). The order is the table's: a room imports rooms below it,
 * never above.
 */
const ROOMS: { room: string; may: string[]; typesOnly?: string[] }[] = [
  { room: "admin/", may: [], typesOnly: ["lib/contracts/admin-api"] },
  { room: "api/", may: ["workflows/", "modules/", ...LIB] },
  { room: "subscribers/", may: ["workflows/", "modules/", ...LIB] },
  { room: "jobs/", may: ["workflows/", "modules/", ...LIB] },
  { room: "links/", may: ["modules/", ...LIB] },
  { room: "workflows/", may: ["modules/", ...LIB] },
  { room: "providers/", may: PURE_LIB },
  { room: "modules/", may: LIB },
  ...MEDUSA_LIB.map((room) => ({ room, may: LIB })),
  { room: "lib/insights/", may: ["lib/tracking/", "lib/contracts/", "lib/support/"] },
  {
    room: "lib/booking/",
    may: [
      "lib/store/",
      "lib/checkout/",
      "lib/collection/",
      "lib/service-client/",
      "lib/money/",
      "lib/contracts/",
      "lib/support/",
    ],
  },
  {
    room: "lib/store/",
    may: ["lib/checkout/", "lib/options/", "lib/collection/", "lib/address/", "lib/contracts/", "lib/support/"],
  },
  { room: "lib/checkout/", may: ["lib/collection/", "lib/money/", "lib/address/", "lib/contracts/", "lib/support/"] },
  { room: "lib/options/", may: ["lib/notifications/", "lib/tracking/", "lib/contracts/", "lib/support/"] },
  {
    room: "lib/notifications/",
    may: ["lib/tracking/", "lib/collection/", "lib/address/", "lib/contracts/", "lib/support/"],
  },
  { room: "lib/tracking/", may: ["lib/contracts/", "lib/support/"] },
  { room: "lib/collection/", may: ["lib/contracts/", "lib/support/"] },
  { room: "lib/service-client/", may: ["lib/contracts/", "lib/support/"] },
  { room: "lib/money/", may: ["lib/contracts/"] },
  { room: "lib/address/", may: [] },
  { room: "lib/support/", may: [] },
  { room: "lib/contracts/", may: [] },
  // The entries that re-export the workspace packages (packages/storefront, packages/simulator), which import nothing
  // of the plugin: the entries import nothing of it either.
  { room: "storefront/", may: [] },
  { room: "simulator/", may: [] },
]

/** The room a file (or a path outside the source) is in: the longest room its path starts with. */
function roomOf(path: string): string | null {
  return (
    ROOMS.map((r) => r.room)
      .filter((room) => path.startsWith(room))
      .sort((a, b) => b.length - a.length)[0] ?? null
  )
}

/** Every cycle a depth-first walk of the graph meets, each as "a → b → a". */
function cyclesOf(graph: Map<string, string[]>): string[] {
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
  return cycles
}

describe("the rooms of the source", () => {
  it("puts every source file in a room of the table", () => {
    const homeless = files.filter((f) => roomOf(f.path) === null)
    expect(homeless.map((f) => f.path).filter((p) => p !== "modules/lastmile/types.ts")).toEqual([])
  })

  it.each(ROOMS.map((r) => [r.room, r] as const))("lets %s import only the rooms below it", (_room, rule) => {
    const offending = files
      .filter((f) => roomOf(f.path) === rule.room)
      .flatMap((f) =>
        importsOf(f)
          .filter(({ target }) => target !== null)
          .filter(({ target, typeOnly }) => {
            const room = roomOf(target!)
            const allowed = room === rule.room || (room !== null && rule.may.includes(room))
            const typeAllowed = typeOnly && (rule.typesOnly ?? []).some((prefix) => target!.startsWith(prefix))
            return !allowed && !typeAllowed
          })
          .map(({ spec, typeOnly }) => `${f.path} imports ${typeOnly ? "type " : ""}${spec}`)
      )
    expect(offending).toEqual([])
  })

  it("keeps lib free of Medusa but in the rooms that read Medusa's data", () => {
    const offending = files
      .filter((f) => PURE_LIB.includes(roomOf(f.path) ?? ""))
      .flatMap((f) =>
        importsOf(f)
          .filter(({ spec }) => spec.startsWith("@medusajs/"))
          .map(({ spec }) => `${f.path} imports ${spec}`)
      )
    expect(offending).toEqual([])
  })

  it("takes zod from Medusa (@medusajs/framework/zod) wherever Medusa may be imported", () => {
    // The pure lib may not import Medusa: it imports zod itself, pinned to the version Medusa re-exports.
    const offending = files
      .filter((f) => !PURE_LIB.includes(roomOf(f.path) ?? ""))
      .flatMap((f) =>
        importsOf(f)
          .filter(({ spec }) => spec === "zod")
          .map(() => f.path)
      )
    expect(offending).toEqual([])
  })

  it("pins zod to the version Medusa re-exports, so the lib's schemas and Medusa's are one zod", () => {
    const pin = (path: string) => JSON.parse(readFileSync(join(SRC, "..", path), "utf8")).dependencies.zod
    expect(pin("package.json")).toBe(pin("node_modules/@medusajs/deps/package.json"))
  })

  it("has no import cycle, type-only imports included", () => {
    const graph = new Map<string, string[]>()
    for (const f of files) {
      graph.set(
        f.path,
        importsOf(f).flatMap(({ target }) => (target ? [target] : []))
      )
    }
    expect(cyclesOf(graph)).toEqual([])
  })

  it("has no cycle between workflows, type-only imports included", () => {
    // A workflow's folder (its steps and runner with it) is one node: two workflows never lean on each other.
    const folderOf = (path: string) => path.match(/^workflows\/[^/]+/)?.[0] ?? null
    const graph = new Map<string, string[]>()
    for (const f of files) {
      const from = folderOf(f.path)
      if (from) {
        const to = importsOf(f).flatMap(({ target }) => {
          const folder = target ? folderOf(target) : null
          return folder && folder !== from ? [folder] : []
        })
        graph.set(from, [...(graph.get(from) ?? []), ...to])
      }
    }
    expect(cyclesOf(graph)).toEqual([])
  })

  it("has no hub: no file both imports more than 8 of the project's files and is imported by more than 25", () => {
    // A hub is what every change passes through (the module service was one): a file many import stays small.
    const targets = new Map(
      files.map((f) => [
        f.path,
        new Set(importsOf(f).flatMap(({ target }) => (target && known.has(target) ? [target] : []))),
      ])
    )
    const importers = new Map<string, number>()
    for (const imported of targets.values()) {
      imported.forEach((target) => importers.set(target, (importers.get(target) ?? 0) + 1))
    }
    const hubs = [...targets].filter(([path, imported]) => imported.size > 8 && (importers.get(path) ?? 0) > 25)
    expect(
      hubs.map(([path, imported]) => `${path}: imports ${imported.size}, imported by ${importers.get(path)}`)
    ).toEqual([])
  })

  it("reads Medusa one way: workflows through useQueryGraphStep or lib/*/medusa readers, routes through those readers", () => {
    // No query of its own in a workflow's folder (steps, runners, hooks) or the HTTP layer, and no reads/ room there.
    const offending = files
      .filter((f) => f.path.startsWith("workflows/") || f.path.startsWith("api/"))
      .filter((f) => /\.graph\(|ContainerRegistrationKeys\.QUERY/.test(f.text) || /^api\/(.*\/)?reads\//.test(f.path))
      .map((f) => f.path)
    expect(offending).toEqual([])
    expect(files.some((f) => f.text.includes("useQueryGraphStep("))).toBe(true)
  })

  it("keeps steps thin: one per file in steps/, 60 lines on average, none over 150, and one runner per workflow", () => {
    const steps = files.filter((f) => /^workflows\/[^/]+\/steps\/[^/]+\.ts$/.test(f.path))
    const lines = steps.map((f) => f.text.split("\n").length - (f.text.endsWith("\n") ? 1 : 0))
    expect(steps.length).toBeGreaterThan(0)
    expect(lines.reduce((sum, n) => sum + n, 0) / lines.length).toBeLessThanOrEqual(60)
    expect(steps.filter((_, i) => lines[i] > 150).map((f) => f.path)).toEqual([])
    expect(steps.filter((f) => (f.text.match(/= createStep\(/g) ?? []).length !== 1).map((f) => f.path)).toEqual([])
    expect(files.filter((f) => f.text.includes("createStep(") && !steps.includes(f)).map((f) => f.path)).toEqual([])
    // A workflow's folder holds its index.ts, its steps and at most a run.ts (workflows/hooks/ registers hooks only).
    const beside = files.filter(
      (f) => /^workflows\/(?!hooks\/)[^/]+\/[^/]+\.ts$/.test(f.path) && !/\/(index|run)\.ts$/.test(f.path)
    )
    expect(beside.map((f) => f.path)).toEqual([])
  })

  it("lets nothing but Medusa's loader and tests import the provider", () => {
    const offending = files
      .filter((f) => !f.path.startsWith("providers/"))
      .flatMap((f) =>
        importsOf(f)
          .filter(({ target }) => target?.startsWith("providers/"))
          .map(({ spec }) => `${f.path} imports ${spec}`)
      )
    expect(offending).toEqual([])
  })

  it("registers hooks only in hook files, whose helpers live below", () => {
    const registrations = files.filter((f) => /\.hooks\.\w+\(/.test(f.text)).map((f) => f.path)
    expect(registrations.every((path) => path.startsWith("workflows/hooks/"))).toBe(true)
    const importedHookFiles = files.flatMap((f) =>
      importsOf(f)
        .filter(({ target }) => target?.startsWith("workflows/hooks/"))
        .map(({ spec }) => `${f.path} imports ${spec}`)
    )
    expect(importedHookFiles).toEqual([])
  })

  it("never decides an outcome by an error's message text", () => {
    const reads = /(message|errorMessage\([^)]*\))\??\.(includes|startsWith|endsWith|match|indexOf)\(/
    const compares = /\bmessage\s*[!=]==?\s*["'`]/
    const offending = files.flatMap((f) =>
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
    const casts = files.flatMap((f) =>
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
