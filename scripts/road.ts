/**
 * The files a placed order runs (placed → booked → delivered → messaged), by room: `npx tsx scripts/road.ts [--list]
 * [--max N]` runs `integration-tests/road/road.spec.ts` in the real app; what counts is in ARCHITECTURE.md.
 */
import { spawnSync } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import type { FileRun } from "../integration-tests/helpers/files-run"

const ROOT = resolve(__dirname, "..")

/** A file's room: the entry points by kind, a workflow's folder, the module, the provider, a lib concern (and its reader). */
export function roomOf(file: string): string {
  const parts = file.replace(/^src\//, "").split("/")
  if (parts[0] === "lib") {
    return parts[2] === "medusa" ? `lib/${parts[1]}/medusa` : `lib/${parts[1]}`
  }
  return ["workflows", "modules", "providers"].includes(parts[0]) && parts.length > 2
    ? `${parts[0]}/${parts[1]}`
    : parts[0]
}

function measure(): { seconds: number; files: FileRun[] } {
  const folder = mkdtempSync(join(tmpdir(), "lastmile-road-"))
  const report = join(folder, "road.json")
  try {
    const jest = spawnSync("npx", ["jest", "--runInBand", "--forceExit", "integration-tests/road"], {
      cwd: ROOT,
      encoding: "utf8",
      maxBuffer: 256 * 1024 * 1024,
      env: {
        ...process.env,
        TEST_TYPE: "road",
        ROAD_REPORT: report,
        NODE_OPTIONS: [process.env.NODE_OPTIONS, "--experimental-vm-modules"].filter(Boolean).join(" "),
      },
    })
    if (jest.status !== 0) {
      process.stderr.write(`${jest.stdout}${jest.stderr}`)
      throw new Error(`the road's spec failed (exit ${jest.status}): its output is above`)
    }
    return JSON.parse(readFileSync(report, "utf8"))
  } finally {
    rmSync(folder, { recursive: true, force: true })
  }
}

if (require.main === module) {
  const list = process.argv.includes("--list")
  const max = process.argv.includes("--max") ? Number(process.argv[process.argv.indexOf("--max") + 1]) : null
  const { seconds, files } = measure()
  const rooms = new Map<string, FileRun[]>()
  for (const run of files) {
    rooms.set(roomOf(run.file), [...(rooms.get(roomOf(run.file)) ?? []), run])
  }
  console.log(
    `The road of a placed order (placed → booked → delivered → messaged), ${seconds.toFixed(1)} s in the app:`
  )
  for (const [room, runs] of [...rooms].sort(([a], [b]) => a.localeCompare(b))) {
    console.log(`  ${room}: ${runs.length}`)
    if (list) {
      runs.forEach(({ file, functions }) => console.log(`    ${file} (${functions.join(", ")})`))
    }
  }
  console.log(`files run: ${files.length}`)
  if (max !== null && files.length > max) {
    console.error(`the road runs ${files.length} files, over ${max}`)
    process.exit(1)
  }
}
