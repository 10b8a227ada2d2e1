/**
 * V8's sampling CPU profiler (as `node --cpu-prof`) around one phase of a benchmark, through `node:inspector`; its
 * summary is the flame graph's flat view (self time by function, file and package), idle time left out.
 */
import { writeFileSync } from "node:fs"
import { Session } from "node:inspector/promises"
import { relative } from "node:path"

interface ProfileNode {
  id: number
  children?: number[]
  callFrame: { functionName: string; url: string; lineNumber: number }
}

export interface CpuProfile {
  nodes: ProfileNode[]
  samples: number[]
  timeDeltas: number[]
  startTime: number
  endTime: number
}

export interface SelfTime {
  what: string
  where: string
  ms: number
}

export interface ProfileSummary {
  /** Sampled CPU time, idle excluded. */
  cpuMs: number
  wallMs: number
  top: SelfTime[]
  byArea: { area: string; ms: number }[]
}

let session: Session | undefined

/** Runs `phase` under the profiler; writes the raw profile to `file` (for a flame graph tool) when given. */
export async function profiled<T>(phase: () => Promise<T>, file?: string): Promise<{ value: T; profile: CpuProfile }> {
  if (!session) {
    session = new Session()
    session.connect()
    await session.post("Profiler.enable")
  }
  await session.post("Profiler.setSamplingInterval", { interval: 250 })
  await session.post("Profiler.start")
  let value: T
  try {
    value = await phase()
  } catch (error) {
    await session.post("Profiler.stop")
    throw error
  }
  const { profile } = (await session.post("Profiler.stop")) as unknown as { profile: CpuProfile }
  if (file) {
    writeFileSync(file, JSON.stringify(profile))
  }
  return { value, profile }
}

/** Where a frame's code lives: the plugin's own room, a package, Node, or V8. */
export function areaOf(url: string): string {
  if (!url) {
    return "V8 (native, GC)"
  }
  if (url.startsWith("node:")) {
    return "Node"
  }
  const modules = url.lastIndexOf("node_modules/")
  if (modules >= 0) {
    const [scope, name] = url.slice(modules + "node_modules/".length).split("/")
    return scope.startsWith("@") ? `${scope}/${name}` : scope
  }
  const src = url.indexOf("/src/")
  if (src >= 0) {
    const [room, sub] = url
      .slice(src + 1)
      .split("/")
      .slice(1)
    return room === "simulator" ? "the simulator" : `plugin: src/${room}${sub && !sub.includes(".") ? `/${sub}` : ""}`
  }
  if (url.includes("integration-tests/")) {
    return "the benchmark's client"
  }
  return "other"
}

export function summarise(profile: CpuProfile, top = 15): ProfileSummary {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]))
  const self = new Map<string, SelfTime>()
  const areas = new Map<string, number>()
  let cpuUs = 0
  const parents = new Map<number, number>()
  for (const node of profile.nodes) {
    for (const child of node.children ?? []) {
      parents.set(child, node.id)
    }
  }
  // Stopping the profiler serialises the profile inside the phase: the measurement's own cost, left out.
  const measuring = (id: number): boolean => {
    for (let at: number | undefined = id; at !== undefined; at = parents.get(at)) {
      if (byId.get(at)?.callFrame.url === "node:inspector") {
        return true
      }
    }
    return false
  }
  profile.samples.forEach((id, i) => {
    const frame = byId.get(id)?.callFrame
    const delta = profile.timeDeltas[i] ?? 0
    if (!frame || frame.functionName === "(idle)" || measuring(id)) {
      return
    }
    cpuUs += delta
    const where = frame.url ? `${shortPath(frame.url)}:${frame.lineNumber + 1}` : ""
    const what = frame.functionName || "(anonymous)"
    const key = `${what}\u0000${where}`
    const entry = self.get(key) ?? { what, where, ms: 0 }
    entry.ms += delta / 1000
    self.set(key, entry)
    const area = frame.functionName === "(garbage collector)" ? "V8 (native, GC)" : areaOf(frame.url)
    areas.set(area, (areas.get(area) ?? 0) + delta / 1000)
  })
  return {
    cpuMs: cpuUs / 1000,
    wallMs: (profile.endTime - profile.startTime) / 1000,
    top: [...self.values()].sort((a, b) => b.ms - a.ms).slice(0, top),
    byArea: [...areas].map(([area, ms]) => ({ area, ms })).sort((a, b) => b.ms - a.ms),
  }
}

function shortPath(url: string): string {
  const path = url.replace(/^file:\/\//, "")
  const modules = path.lastIndexOf("node_modules/")
  if (modules >= 0) {
    return path.slice(modules + "node_modules/".length).replace(/\/dist\//, "/")
  }
  return path.startsWith("/") ? relative(process.cwd(), path) : path
}

/** A Markdown table of a summary: CPU per request, then the top entries by self time, then by area. */
export function profileTable(title: string, summary: ProfileSummary, requests: number, top = 12): string {
  const perRequest = (ms: number) => (ms / requests).toFixed(2)
  const share = (ms: number) => `${((100 * ms) / summary.cpuMs).toFixed(1)}%`
  const rows = summary.top
    .slice(0, top)
    .map((e) => `| ${e.what} | ${e.where ? `\`${e.where}\`` : "(V8)"} | ${perRequest(e.ms)} | ${share(e.ms)} |`)
  const areas = summary.byArea
    .slice(0, 10)
    .map((a) => `${a.area} ${share(a.ms)}`)
    .join("; ")
  return `**${title}**: ${requests} requests, ${perRequest(summary.cpuMs)} ms of CPU each (${summary.cpuMs.toFixed(0)} ms sampled over ${summary.wallMs.toFixed(0)} ms).

| Function (self time) | Where | ms per request | Share |
|---|---|---|---|
${rows.join("\n")}

By area: ${areas}.
`
}

/**
 * Inclusive time of the plugin's own functions: each sample counted once for every plugin frame on its stack (the
 * synchronous part only: work a frame awaits runs under the event loop's frames), the `top` largest.
 */
export function pluginInclusive(profile: CpuProfile, top = 12): SelfTime[] {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]))
  const parents = new Map<number, number>()
  for (const node of profile.nodes) {
    for (const child of node.children ?? []) {
      parents.set(child, node.id)
    }
  }
  const totals = new Map<string, SelfTime>()
  profile.samples.forEach((id, i) => {
    const delta = (profile.timeDeltas[i] ?? 0) / 1000
    const seen = new Set<string>()
    for (let at: number | undefined = id; at !== undefined; at = parents.get(at)) {
      const frame = byId.get(at)?.callFrame
      if (!frame?.url || !areaOf(frame.url).startsWith("plugin")) {
        continue
      }
      const where = `${shortPath(frame.url)}:${frame.lineNumber + 1}`
      const key = `${frame.functionName}\u0000${where}`
      if (seen.has(key)) {
        continue
      }
      seen.add(key)
      const entry = totals.get(key) ?? { what: frame.functionName || "(anonymous)", where, ms: 0 }
      entry.ms += delta
      totals.set(key, entry)
    }
  })
  return [...totals.values()].sort((a, b) => b.ms - a.ms).slice(0, top)
}
