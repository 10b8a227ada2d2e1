/**
 * The rooms' rules (ARCHITECTURE.md), checked on the source: imports point
 * down into the domain, nothing but Medusa's loader and tests reaches into
 * the provider, no outcome is read from an error's message text, and the few
 * unchecked double casts left each say why.
 */
import { readFileSync, readdirSync, statSync } from "node:fs"
import { join, relative } from "node:path"

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

function importsOf(text: string): string[] {
  return [...text.matchAll(/(?:from|import)\s+["']([^"']+)["']/g)].map((m) => m[1])
}

describe("the rooms of the source", () => {
  it("keeps the domain room pure: nothing of Medusa and nothing else of the project", () => {
    const domain = production.filter((f) => f.path.startsWith("lib/lastmile/"))
    expect(domain.length).toBeGreaterThan(10)
    const offending = domain.flatMap((f) =>
      importsOf(f.text)
        .filter((spec) => spec.startsWith("@medusajs/") || (spec.startsWith(".") && !spec.startsWith("./")))
        .map((spec) => `${f.path} imports ${spec}`)
    )
    expect(offending).toEqual([])
  })

  it("lets nothing but Medusa's loader and tests import the provider", () => {
    const offending = production
      .filter((f) => !f.path.startsWith("providers/"))
      .flatMap((f) =>
        importsOf(f.text)
          .filter((spec) => spec.includes("providers/"))
          .map((spec) => `${f.path} imports ${spec}`)
      )
    expect(offending).toEqual([])
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
