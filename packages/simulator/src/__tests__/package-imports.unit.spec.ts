/**
 * The simulator is a program of its own, installed with the plugin or alone: it imports nothing of the plugin,
 * only its own files, Node's modules and the dependencies its package.json declares.
 */
import { readFileSync, readdirSync } from "node:fs"
import { join } from "node:path"

const ROOM = join(__dirname, "..")
const manifest = JSON.parse(readFileSync(join(ROOM, "..", "package.json"), "utf8"))

const imports = readdirSync(ROOM)
  .filter((name) => name.endsWith(".ts"))
  .flatMap((name) =>
    [...readFileSync(join(ROOM, name), "utf8").matchAll(/^(?:import|export)\s[^"']*?from\s+["']([^"']+)["']/gm)].map(
      ([, spec]) => ({ name, spec })
    )
  )

describe("the simulator package", () => {
  it("imports only its own files, Node's modules and its declared dependencies", () => {
    const declared = Object.keys(manifest.dependencies ?? {})
    const allowed = (spec: string) => spec.startsWith("./") || spec.startsWith("node:") || declared.includes(spec)
    expect(imports.length).toBeGreaterThan(10)
    expect(imports.filter((i) => !allowed(i.spec)).map((i) => `${i.name} imports ${i.spec}`)).toEqual([])
  })

  it("declares no peer: it runs without Medusa", () => {
    expect([manifest.peerDependencies, Object.keys(manifest.dependencies)]).toEqual([undefined, ["undici"]])
  })
})
