/**
 * A file's header says what the file is in a line or two and cites ARCHITECTURE.md's decisions by number rather than
 * restating them; the why of a piece of code sits beside that code.
 */
import { readFileSync, readdirSync, statSync } from "node:fs"
import { join, relative } from "node:path"

const ROOT = join(__dirname, "..", "..")
const FOLDERS = ["src", "packages", "demo", "integration-tests", "scripts"]
const SKIPPED = new Set(["node_modules", "dist", ".medusa"])

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) {
      return SKIPPED.has(name) ? [] : sourceFiles(path)
    }
    return /\.(ts|tsx|mts|js|mjs)$/.test(name) ? [path] : []
  })
}

/** The lines of text of a file's leading comment (after a shebang), delimiters left out. */
function headerLines(text: string): string[] {
  const lines = text.split("\n")
  const start = lines[0]?.startsWith("#!") ? 1 : 0
  const first = lines[start]?.trimStart() ?? ""
  let block: string[]
  if (first.startsWith("/*")) {
    const end = lines.findIndex((line, i) => i >= start && line.includes("*/"))
    block = lines.slice(start, end + 1).map((line) =>
      line
        .trim()
        .replace(/^\/\*\*?/, "")
        .replace(/\*\/$/, "")
        .replace(/^\*/, "")
    )
  } else {
    const end = lines.findIndex((line, i) => i >= start && !line.trimStart().startsWith("//"))
    block = lines.slice(start, end).map((line) => line.trim().replace(/^\/\//, ""))
  }
  return block.map((line) => line.trim()).filter(Boolean)
}

describe("file headers", () => {
  const files = FOLDERS.flatMap((folder) => sourceFiles(join(ROOT, folder))).map((path) => relative(ROOT, path))

  it("reads a header's lines of text", () => {
    expect(headerLines("#!/usr/bin/env node\n/** One. */\ncode")).toEqual(["One."])
    expect(headerLines("/**\n * One\n * two.\n */\ncode")).toEqual(["One", "two."])
    expect(headerLines("// One\n// two.\nimport x")).toEqual(["One", "two."])
    expect(headerLines("import x\n/** Not a header. */")).toEqual([])
  })

  it("say what a file is in a line or two", () => {
    expect(files.length).toBeGreaterThan(300)
    const long = files
      .map((file) => ({ file, lines: headerLines(readFileSync(join(ROOT, file), "utf8")).length }))
      .filter(({ lines }) => lines > 2)
      .map(({ file, lines }) => `${file}: ${lines} lines`)
    expect(long).toEqual([])
  })
})
