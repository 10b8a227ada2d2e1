/**
 * The storefront package as a storefront gets it: packed, installed alone with `--strict-peer-deps`, its tree and its
 * types checked, run both ways (`npm run test:storefront-package`; `npm run test:install` runs it too).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { REPO_DIR, packWorkspacePackage, run } from "./lib/host-app"

const MEDUSA_VERSION = "2.21.2"
/** Nothing of these may come with the package: a storefront installs no server, and brings its own UI. */
const FORBIDDEN = [/^@medusajs\/(?!js-sdk$|types$)/, /^react$/, /^react-dom$/, /^next$/]

const CONSUMER = `import Medusa from "@medusajs/js-sdk"
import type { HttpTypes } from "@medusajs/types"
import {
  type LastmileDeliveryStep,
  type LastmileRatesResponse,
  createLastmileStorefront,
  describeChosenMethod,
  describeOrderTracking,
  readChosenMethod,
  readOrderTracking,
  toDeliveryStep,
} from "medusa-plugin-lastmile-storefront"

const sdk = new Medusa({ baseUrl: "http://localhost:9000", publishableKey: "pk_test" })
const lastmile = createLastmileStorefront(sdk, { logger: null })

export function step(cart: HttpTypes.StoreCart): Promise<LastmileDeliveryStep> {
  return lastmile.loadDeliveryStep(cart.id, { cart, locale: "en-GB", timeZone: "Europe/London" })
}

export function offline(response: LastmileRatesResponse): string[] {
  return toDeliveryStep(response).delivery.map((choice) => choice.priceText)
}

export function confirmation(order: HttpTypes.StoreOrder): string | null {
  const chosen = readChosenMethod(order)
  const tracking = readOrderTracking(order)
  return chosen && tracking ? \`\${describeChosenMethod(chosen).heading}: \${describeOrderTracking(tracking).statusText}\` : null
}

export async function waitOn(orderId: string, signal: AbortSignal): Promise<string> {
  const { outcome } = await lastmile.waitForBooking(orderId, { signal })
  return outcome
}
`

const RUN = `const { toDeliveryStep } = LOAD
const step = toDeliveryStep({ cart_id: "cart_1", currency_code: "gbp", eligibility: "FULL", rates: [] })
if (step.reasons.verdict?.kind !== "none_available") throw new Error("unexpected step")
`

/** Installs the tarball into an empty project and checks it as a storefront would use it; a line saying what held. */
export async function checkStorefrontPackage(tarball: string): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), "lastmile-storefront-consumer-"))
  try {
    writeFileSync(
      join(dir, "package.json"),
      JSON.stringify({ name: "a-storefront", version: "1.0.0", private: true }, null, 2)
    )
    const installed = await run(
      "npm",
      [
        "install",
        "--strict-peer-deps",
        "--no-audit",
        "--no-fund",
        "--prefer-offline",
        tarball,
        `@medusajs/js-sdk@${MEDUSA_VERSION}`,
        `@medusajs/types@${MEDUSA_VERSION}`,
      ],
      { cwd: dir }
    )
    const peerWarnings = installed.split("\n").filter((line) => /peer|ERESOLVE/i.test(line))
    if (peerWarnings.length) {
      throw new Error(`npm warned of peers:\n${peerWarnings.join("\n")}`)
    }
    const lock = JSON.parse(readFileSync(join(dir, "package-lock.json"), "utf8")) as {
      packages: Record<string, { dependencies?: Record<string, string>; peerDependencies?: Record<string, string> }>
    }
    const tree = Object.keys(lock.packages)
      .filter((path) => path.startsWith("node_modules/"))
      .map((path) => path.slice(path.lastIndexOf("node_modules/") + "node_modules/".length))
    const forbidden = tree.filter((name) => FORBIDDEN.some((pattern) => pattern.test(name)))
    if (forbidden.length) {
      throw new Error(`the storefront's tree holds ${forbidden.join(", ")}`)
    }
    const own = lock.packages["node_modules/medusa-plugin-lastmile-storefront"]
    if (!own || own.dependencies || own.peerDependencies) {
      throw new Error(`the package is not installed alone: ${JSON.stringify(own)}`)
    }

    writeFileSync(join(dir, "consumer.ts"), CONSUMER)
    const tsc = join(REPO_DIR, "node_modules", "typescript", "bin", "tsc")
    const resolutions = [
      { module: "esnext", moduleResolution: "node" },
      { module: "esnext", moduleResolution: "bundler" },
      { module: "node16", moduleResolution: "node16" },
    ]
    for (const { module, moduleResolution } of resolutions) {
      const config = `tsconfig.${moduleResolution}.json`
      writeFileSync(
        join(dir, config),
        JSON.stringify({
          compilerOptions: {
            strict: true,
            noEmit: true,
            target: "ES2020",
            lib: ["ES2022", "DOM"],
            module,
            moduleResolution,
            esModuleInterop: true,
            skipLibCheck: true,
            types: [],
          },
          files: ["consumer.ts"],
        })
      )
      await run(process.execPath, [tsc, "-p", config], { cwd: dir })
    }

    writeFileSync(join(dir, "run.cjs"), RUN.replace("LOAD", 'require("medusa-plugin-lastmile-storefront")'))
    writeFileSync(join(dir, "run.mjs"), RUN.replace("LOAD", 'await import("medusa-plugin-lastmile-storefront")'))
    await run(process.execPath, ["run.cjs"], { cwd: dir })
    await run(process.execPath, ["run.mjs"], { cwd: dir })
    return `${tree.length} packages, none of Medusa's server; type-checks with moduleResolution ${resolutions.map((r) => r.moduleResolution).join(", ")}; runs with require and import`
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

if (require.main === module) {
  const started = Date.now()
  const work = mkdtempSync(join(tmpdir(), "lastmile-storefront-pack-"))
  packWorkspacePackage("storefront", work)
    .then(checkStorefrontPackage)
    .then(
      (summary) => {
        process.stdout.write(
          `storefront-package: passed in ${Math.round((Date.now() - started) / 1000)} s: ${summary}\n`
        )
        rmSync(work, { recursive: true, force: true })
      },
      (error: unknown) => {
        process.stderr.write(`storefront-package: FAILED: ${error instanceof Error ? error.message : String(error)}\n`)
        rmSync(work, { recursive: true, force: true })
        process.exit(1)
      }
    )
}
