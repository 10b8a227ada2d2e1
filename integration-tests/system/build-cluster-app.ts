/**
 * `npm run test:cluster-app`: builds the cluster and fault tests' app (host-app.ts's CLUSTER_APP) and leaves it for
 * them to reuse. CI runs it while the other tests run: its `npm install` mostly waits on the registry.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { CLUSTER_APP, buildHostApp, hostEnv } from "./lib/host-app"

const say = (line: string) => process.stdout.write(`cluster app: ${line}\n`)

async function main(): Promise<void> {
  const started = Date.now()
  const work = mkdtempSync(join(tmpdir(), "lastmile-cluster-app-"))
  try {
    const { appDir } = await buildHostApp({ ...CLUSTER_APP, env: hostEnv(CLUSTER_APP.env), work, log: say })
    say(`built in ${Math.round((Date.now() - started) / 1000)} s: ${appDir}`)
  } finally {
    rmSync(work, { recursive: true, force: true })
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`cluster app: ${error instanceof Error ? error.stack : String(error)}\n`)
    process.exit(1)
  }
)
