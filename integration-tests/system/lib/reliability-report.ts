/** Writes one run's figures into RELIABILITY.md, between its section's markers, leaving the other sections alone. */
import { existsSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"

const FILE = join(__dirname, "..", "..", "..", "RELIABILITY.md")

export function recordSection(name: string, markdown: string): void {
  const start = `<!-- ${name}:start -->`
  const end = `<!-- ${name}:end -->`
  const text = existsSync(FILE) ? readFileSync(FILE, "utf8") : "# Reliability\n"
  const block = `${start}\n\n${markdown.trim()}\n\n${end}`
  const at = text.indexOf(start)
  const next =
    at >= 0 ? text.slice(0, at) + block + text.slice(text.indexOf(end) + end.length) : `${text.trimEnd()}\n\n${block}\n`
  writeFileSync(FILE, next)
}
