/**
 * The road a placed order travels (placed → booked → delivered → messaged), measured in the source's files:
 * `npx tsx scripts/road.ts` (`--list` names them; `--max 45` fails when the figure is over 45).
 *
 * The road is the transitive import closure, type-only imports, re-exports and dynamic imports included, of the files
 * Medusa runs on it: the order.placed subscriber (placed), the fulfillmentCreated hook (booked), the webhook route and
 * its subscriber and the tracking poll job (delivered), and the notify step (messaged). Only files of `src/` count,
 * never a spec. The figure is the road's rooms with effects: entry points, workflows and their steps and runners, the
 * module, and the `lib/*\/medusa/` readers; the pure lib it uses (`src/lib` but its `medusa/` folders: functions
 * tested alone, which read and write nothing) is counted beside it, and the total under both. What Medusa's container
 * reaches without an import (the module's face, `modules/lastmile/service.ts`; the provider's `createFulfillment`,
 * which marks the fulfillment `pending_booking`) is named, never counted.
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
