/** Which of the project's `src/` files had a function of theirs called in a span of time, from V8's precise coverage. */
import { Session } from "node:inspector/promises"
import { relative } from "node:path"
import { fileURLToPath } from "node:url"

interface CoveredFunction {
  functionName: string
  ranges: { startOffset: number; endOffset: number; count: number }[]
}
interface ScriptCoverage {
  scriptId: string
  url: string
  functions: CoveredFunction[]
}

export interface FileRun {
  /** The file, from the project's root. */
  file: string
  /** Its functions that ran, by name (`(anonymous)` for an arrow or a callback). */
  functions: string[]
}

/** A `src/` file the measure counts: not a spec, nor a test's support, nor the simulator (another program). */
export const countedSource = (file: string): boolean =>
  /^src\/.*\.tsx?$/.test(file) &&
  !/(^|\/)__tests__\//.test(file) &&
  !/\.(spec|d)\.tsx?$/.test(file) &&
  !/^src\/(simulator|test-support)\//.test(file)

/**
 * What the transform adds to a file rather than its own code: SWC's helpers (`_export`, `_interop_require_default`, …)
 * and the getter it gives each export (`_export(exports, { … })`, `Object.defineProperty(exports, …)`), which runs
 * whenever another file reads the export.
 */
function addedRanges(source: string, functions: CoveredFunction[]): [number, number][] {
  const ranges: [number, number][] = functions
    .filter((f) => /^_[a-z][a-z_]*$/.test(f.functionName))
    .map((f) => [f.ranges[0].startOffset, f.ranges[0].endOffset])
  for (const opening of source.matchAll(/_export\(exports, \{|Object\.defineProperty\(exports, "/g)) {
    ranges.push([opening.index, source.indexOf("\n});", opening.index)])
  }
  return ranges
}

/** The functions of a file's own code that ran: not its evaluation (the script, Jest's module wrapper), nor SWC's. */
function ownFunctionsRun(source: string, functions: CoveredFunction[]): string[] {
  const added = addedRanges(source, functions)
  return functions
    .filter(({ functionName, ranges: [{ startOffset, endOffset, count }] }) => {
      const evaluation =
        (startOffset === 0 && functionName === "") ||
        (functionName === "Object.<anonymous>" && endOffset >= source.length - 8)
      const transformed = added.some(([from, to]) => startOffset >= from && startOffset <= to)
      return count > 0 && !evaluation && !transformed
    })
    .map((f) => f.functionName || "(anonymous)")
}

/** Counts from now: precise coverage with call counts, its counters reset. */
export async function startCounting(): Promise<Session> {
  const session = new Session()
  session.connect()
  await session.post("Profiler.enable")
  await session.post("Profiler.startPreciseCoverage", { callCount: true, detailed: false })
  await session.post("Profiler.takePreciseCoverage")
  return session
}

/** The counted files whose own functions ran since `startCounting`, each with those functions; stops counting. */
export async function filesRun(session: Session, root: string): Promise<FileRun[]> {
  const { result } = (await session.post("Profiler.takePreciseCoverage")) as { result: ScriptCoverage[] }
  await session.post("Profiler.stopPreciseCoverage")
  await session.post("Debugger.enable")
  const runs: FileRun[] = []
  for (const script of result) {
    const file = relative(root, script.url.startsWith("file:") ? fileURLToPath(script.url) : script.url)
    if (!countedSource(file)) {
      continue
    }
    const { scriptSource } = await session.post("Debugger.getScriptSource", { scriptId: script.scriptId })
    const functions = ownFunctionsRun(scriptSource, script.functions)
    if (functions.length) {
      runs.push({ file, functions: [...new Set(functions)] })
    }
  }
  await session.post("Debugger.disable")
  session.disconnect()
  return runs.sort((a, b) => a.file.localeCompare(b.file))
}
