/**
 * The plugin's entries that are workspace packages (decision 34): `medusa-plugin-lastmile/storefront`,
 * `medusa-plugin-lastmile/simulator` and the `lastmile-simulator` bin each give the package whole.
 */
import { readFileSync } from "node:fs"
import { join } from "node:path"
import * as storefrontPackage from "medusa-plugin-lastmile-storefront"
import * as simulatorPackage from "../../packages/simulator/src"
import * as storefrontEntry from "../storefront"
import * as simulatorEntry from "../simulator"

const ROOT = join(__dirname, "..", "..")
const manifest = (dir: string) => JSON.parse(readFileSync(join(ROOT, dir, "package.json"), "utf8"))
const plugin = manifest(".")
const simulator = manifest("packages/simulator")

/** The built file an entry names, back to the source it is built from. */
const sourceOf = (built: string) => built.replace("./.medusa/server/", "").replace(/\.js$/, ".ts")

describe("the plugin's package entries", () => {
  it("gives the storefront package whole as medusa-plugin-lastmile/storefront", () => {
    expect(sourceOf(plugin.exports["./storefront"].default)).toBe("src/storefront/index.ts")
    expect(Object.keys(storefrontEntry).sort()).toEqual(Object.keys(storefrontPackage).sort())
    expect(storefrontEntry.createLastmileStorefront).toBe(storefrontPackage.createLastmileStorefront)
    expect(Object.keys(storefrontEntry)).toEqual(expect.arrayContaining(["toDeliveryStep", "describeOrderTracking"]))
  })

  it("gives the simulator package whole as medusa-plugin-lastmile/simulator", () => {
    expect(sourceOf(plugin.exports["./simulator"].default)).toBe("src/simulator/index.ts")
    expect(Object.keys(simulatorEntry).sort()).toEqual(Object.keys(simulatorPackage).sort())
    expect(simulatorEntry.LastmileSimulator).toBe(simulatorPackage.LastmileSimulator)
    expect(Object.keys(simulatorEntry)).toEqual(expect.arrayContaining(["LastmileSimulator", "londonLocations"]))
  })

  it("keeps the lastmile-simulator bin, which runs the simulator package's own", () => {
    const bin = sourceOf(plugin.bin["lastmile-simulator"])
    expect(bin).toBe("src/simulator/cli.ts")
    const text = readFileSync(join(ROOT, bin), "utf8")
    expect(text.startsWith("#!/usr/bin/env node\n")).toBe(true)
    expect(text).toContain(`import "${simulator.name}/cli"`)
    expect(simulator.exports["./cli"]).toBe(simulator.bin["lastmile-simulator"])
    expect(plugin.dependencies[simulator.name]).toBe(simulator.version)
  })
})
