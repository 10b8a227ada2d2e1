/**
 * The files a placed order crosses (placed → booked → delivered → messaged): `npx tsx scripts/road.ts [--list] [--max N]`.
 * What counts (entry points, workflows, the module, the medusa readers; the pure lib beside them) is in ARCHITECTURE.md.
 */
import ts from "typescript"
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs"
import { dirname, join, relative, resolve } from "node:path"

const ROOT = resolve(__dirname, "..")
const SRC = join(ROOT, "src")

export const ROAD_ENTRY_POINTS = [
  "src/subscribers/lastmile-order-placed.ts",
  "src/workflows/hooks/lastmile-fulfillment-created.ts",
  "src/api/hooks/lastmile/[token]/route.ts",
  "src/subscribers/lastmile-webhook-received.ts",
  "src/jobs/lastmile-tracking-poll.ts",
  "src/workflows/notify-task/steps/send-task-notifications.ts",
]

const REACHED_BY_CONTAINER = [
  "src/modules/lastmile/service.ts",
  "src/providers/lastmile/service.ts (createFulfillment)",
]

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) {
      return name === "__tests__" ? [] : sourceFiles(path)
    }
    return /\.tsx?$/.test(name) && !/\.(spec|d)\.tsx?$/.test(name) ? [path] : []
  })
}

/** The project file a relative specifier names, if any. */
function resolveImport(from: string, specifier: string): string | null {
  if (!specifier.startsWith(".")) {
    return null
  }
  const base = resolve(dirname(from), specifier.replace(/\.js$/, ""))
  const found = [base, `${base}.ts`, `${base}.tsx`, join(base, "index.ts")].find(
    (candidate) => existsSync(candidate) && statSync(candidate).isFile()
  )
  return found && !/\.(spec|d)\.tsx?$/.test(found) ? found : null
}

export function importGraph(): Map<string, string[]> {
  return new Map(
    sourceFiles(SRC).map((file) => {
      const { importedFiles } = ts.preProcessFile(readFileSync(file, "utf8"), true, true)
      const targets = importedFiles.flatMap(({ fileName }) => resolveImport(file, fileName) ?? [])
      return [file, [...new Set(targets)]]
    })
  )
}

export function road(graph = importGraph()): { effects: string[]; pureLib: string[] } {
  const seen = new Set<string>()
  const stack = ROAD_ENTRY_POINTS.map((entry) => join(ROOT, entry))
  for (let file = stack.pop(); file; file = stack.pop()) {
    if (!seen.has(file)) {
      seen.add(file)
      stack.push(...(graph.get(file) ?? []))
    }
  }
  const files = [...seen].map((file) => relative(ROOT, file)).sort()
  const pure = (file: string) => file.startsWith("src/lib/") && !file.includes("/medusa/")
  return { effects: files.filter((f) => !pure(f)), pureLib: files.filter(pure) }
}

if (require.main === module) {
  const { effects, pureLib } = road()
  const list = process.argv.includes("--list")
  const max = process.argv.includes("--max") ? Number(process.argv[process.argv.indexOf("--max") + 1]) : null
  console.log(`The road of a placed order (placed → booked → delivered → messaged), from:`)
  ROAD_ENTRY_POINTS.forEach((entry) => console.log(`  ${entry}`))
  console.log(`rooms with effects: ${effects.length}`)
  if (list) {
    effects.forEach((file) => console.log(`  ${file}`))
  }
  console.log(`pure lib it uses: ${pureLib.length}`)
  if (list) {
    pureLib.forEach((file) => console.log(`  ${file}`))
  }
  console.log(`total files: ${effects.length + pureLib.length}`)
  console.log(`reached through Medusa's container, not counted: ${REACHED_BY_CONTAINER.join("; ")}`)
  if (max !== null && effects.length > max) {
    console.error(`The road crosses ${effects.length} rooms with effects, more than ${max}.`)
    process.exit(1)
  }
}
