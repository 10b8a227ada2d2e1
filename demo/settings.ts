/** What `npm run demo` and `npm run demo:checkout` share: ports, keys and the demo's state file. */
import { existsSync, readFileSync } from "node:fs"
import { join } from "node:path"

export const DEMO_DIR = join(process.cwd(), ".demo")
export const DEMO_STATE_FILE = join(DEMO_DIR, "store.json")
export const MEDUSA_PORT = Number(process.env.PORT ?? 9000)
export const SIMULATOR_PORT = Number(process.env.LASTMILE_SIM_PORT ?? 4010)
export const STOREFRONT_PORT = Number(process.env.STOREFRONT_PORT ?? 8000)
export const DEMO_API_KEY = "lm_demo_key_0123456789"
export const DEMO_WEBHOOK_SECRET = "demo_webhook_secret_0123456789"
export const DEMO_ADMIN = { email: "admin@lastmile.demo", password: "lastmile-demo" }
export const DEMO_SKUS = ["DEMO-TEE", "DEMO-MUG"]

export interface DemoState {
  medusaUrl: string
  simulatorUrl: string
  storefrontUrl: string
  publishableKey: string
  regionId: string
  /** The demo's database (the demo history ages its rows there). */
  databaseUrl: string
}

export function readDemoState(): DemoState {
  if (!existsSync(DEMO_STATE_FILE)) {
    throw new Error("No demo is running here: start one with `npm run demo` first.")
  }
  return JSON.parse(readFileSync(DEMO_STATE_FILE, "utf8")) as DemoState
}

/** Stock per store: plenty of tees; mugs run out at every third store, so click and collect varies. */
export function demoStock(store: number, sku: string): number {
  return sku === "DEMO-MUG" && store % 3 === 2 ? 0 : 25
}

/** `LASTMILE_DEMO_SETUP=dashboard`: the demo seeds nothing of the plugin's; the merchant sets it up in Settings → Lastmile. */
export function demoSetsUpInDashboard(): boolean {
  return process.env.LASTMILE_DEMO_SETUP === "dashboard"
}
