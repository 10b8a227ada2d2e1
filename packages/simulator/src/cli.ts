#!/usr/bin/env node
/**
 * `npm run simulator` / `lastmile-simulator`: runs the service simulator on
 * loopback with a London-like merchant, for local development and the demo.
 */
import { parseArgs } from "node:util"
import { readFileSync } from "node:fs"
import { DEFAULT_SIMULATOR_API_KEY, SIMULATOR_PROFILES, londonLocations } from "./defaults"
import { LastmileSimulator } from "./server"
import type { SimLocation, SimulatorProfile } from "./types"

const HELP = `lastmile-simulator: a local, stateful stand-in for the last-mile service

Options (environment variable in brackets):
  --port <n>            port to listen on [LASTMILE_SIM_PORT] (default 4010)
  --host <addr>         address to bind [LASTMILE_SIM_HOST] (default 127.0.0.1)
  --api-key <key>       the x-api-key it accepts [LASTMILE_API_KEY] (default ${DEFAULT_SIMULATOR_API_KEY})
  --webhook-url <url>   where status webhooks are POSTed [LASTMILE_SIM_WEBHOOK_URL]
  --locations <file>    JSON list of fulfilment locations (default: a London warehouse and 10 stores)
  --skus <a,b,c>        SKUs stocked by the default locations (default DEMO-TEE,DEMO-MUG,DEMO-CAP)
  --latency <ms>        latency added to every API call
  --profile <name>      default | strict [LASTMILE_SIM_PROFILE] (default: default). strict answers in
                        the least convenient shapes the spec allows: several rates per delivery type
                        with codes minted per quote and no deliveryType, an errored rate without a
                        price, null optional fields, bare-number collection prices without a store
                        field, a paged location list with an unreadable item, a single-task lookup,
                        409 on a repeated booking, booking answers without a tracking URL, and
                        returns that the lookup does not find, that show no taskType, and that are
                        booked again (a second task) when repeated; terse statuses (EN_ROUTE,
                        COMPLETED for deliveries and collections alike, READY_FOR_PICKUP, ATTEMPTED),
                        and a booking's order.note (not in the spec) refused with a 400
  --order-note <mode>   accept | refuse [LASTMILE_SIM_ORDER_NOTE]: whether bookings may carry order.note,
                        the shopper's note to the courier (default: the profile's; default accepts, strict refuses)
  --help                this text

Control API (no key; loopback only): GET /__sim/requests, POST|DELETE /__sim/faults,
GET|PATCH /__sim/config (a "profile" field in the PATCH starts over from that profile),
GET /__sim/tasks, POST /__sim/tasks/:id/advance, POST /__sim/tasks/:id/status {value},
POST /__sim/tasks/:id/cancel (the merchant cancels in the service's app: status cancelledStatus, webhook),
POST /__sim/tasks/:id/fail-attempt (a delivery on its way: status failedAttemptStatus; advance sends it out again),
GET|PUT /__sim/locations, POST /__sim/locations {location} (201; 409 if its fulfilmentLocationId exists),
PATCH /__sim/locations/:id {fields} (each replaces the stored one), DELETE /__sim/locations/:id,
PATCH /__sim/locations/:id/stock {"<sku>": units} (merged into its stock), where :id is the
fulfilmentLocationId or externalLocationId (404 if none), POST /__sim/clock {advanceMs},
GET /__sim/webhooks. Tracking pages: GET /track/:trackingId.`

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: "string" },
      host: { type: "string" },
      "api-key": { type: "string" },
      "webhook-url": { type: "string" },
      locations: { type: "string" },
      skus: { type: "string" },
      latency: { type: "string" },
      profile: { type: "string" },
      "order-note": { type: "string" },
      help: { type: "boolean" },
    },
  })
  if (values.help) {
    console.log(HELP)
    return
  }
  const env = process.env
  const profile = values.profile ?? env.LASTMILE_SIM_PROFILE ?? "default"
  if (!SIMULATOR_PROFILES.includes(profile as SimulatorProfile)) {
    throw new Error(`--profile must be one of ${SIMULATOR_PROFILES.join(", ")} (got "${profile}")`)
  }
  const orderNote = values["order-note"] ?? env.LASTMILE_SIM_ORDER_NOTE
  if (orderNote !== undefined && orderNote !== "accept" && orderNote !== "refuse") {
    throw new Error(`--order-note must be accept or refuse (got "${orderNote}")`)
  }
  const port = Number(values.port ?? env.LASTMILE_SIM_PORT ?? 4010)
  const host = values.host ?? env.LASTMILE_SIM_HOST ?? "127.0.0.1"
  const skus = (values.skus ?? "DEMO-TEE,DEMO-MUG,DEMO-CAP")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)
  const locations: SimLocation[] = values.locations
    ? (JSON.parse(readFileSync(values.locations, "utf8")) as SimLocation[])
    : londonLocations(skus)
  const simulator = new LastmileSimulator({
    profile: profile as SimulatorProfile,
    config: {
      apiKey: values["api-key"] ?? env.LASTMILE_API_KEY ?? DEFAULT_SIMULATOR_API_KEY,
      webhookUrl: values["webhook-url"] ?? env.LASTMILE_SIM_WEBHOOK_URL,
      ...(orderNote ? { orderNote } : {}),
    },
    locations,
  })
  if (values.latency) {
    simulator.addFault({ operation: "*", kind: "latency", latencyMs: Number(values.latency) })
  }
  const url = await simulator.start(port, host)
  console.log(`lastmile simulator listening on ${url} (${locations.length} locations, profile ${profile})`)
  console.log(`set LASTMILE_BASE_URL=${url} and LASTMILE_API_KEY to the key it was started with`)
  const shutdown = () => {
    void simulator.stop().then(() => process.exit(0))
  }
  process.on("SIGINT", shutdown)
  process.on("SIGTERM", shutdown)
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error)
  process.exit(1)
})
