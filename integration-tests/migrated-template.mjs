/**
 * One migrated template database per run (global setup), which each HTTP suite's database is copied from
 * (helpers/medusa-app.ts) instead of migrating again; its name reaches the workers in LASTMILE_MIGRATED_TEMPLATE.
 */
import { spawn } from "node:child_process"
import { createRequire } from "node:module"

const require = createRequire(import.meta.url)
const { Client } = require("@medusajs/framework/pg")

/** Per run (its name reaches the test workers through the environment): two runs may share one DB_HOST. */
const MIGRATED_TEMPLATE = `lastmile-migrated-${process.pid}`

/**
 * Medusa's test runner's own database helpers, loaded on first use: they read the DB_* variables when loaded, which
 * global setup sets for an embedded PostgreSQL just before.
 */
function testDatabases() {
  const { TestDatabaseUtils } = require("@medusajs/test-utils")
  const { closeWaitingroomClient } = require("@medusajs/test-utils/dist/medusa-test-runner-utils")
  return { ...TestDatabaseUtils, utils: TestDatabaseUtils.dbTestUtilFactory(), closeWaitingroomClient }
}

/**
 * Creates the template from nothing, so a run never copies a database migrated by an older checkout:
 * `medusa db:migrate --skip-scripts`, as the test runner runs no migration scripts either.
 */
export async function migrateTemplate() {
  const { utils, getDatabaseURL, closeWaitingroomClient } = testDatabases()
  await utils.dropTemplate(MIGRATED_TEMPLATE)
  await closeWaitingroomClient()
  await utils.create(MIGRATED_TEMPLATE)
  const url = getDatabaseURL(MIGRATED_TEMPLATE)
  const output = []
  const code = await new Promise((resolve, reject) => {
    const child = spawn("npx", ["medusa", "db:migrate", "--skip-scripts"], {
      env: {
        ...process.env,
        NODE_ENV: "test",
        DATABASE_URL: url,
        MEDUSA_DISABLE_TELEMETRY: "true",
        // The provider's options are checked at load; migrating calls no service.
        LASTMILE_API_KEY: "lm_migrate_only",
        LASTMILE_BASE_URL: "http://127.0.0.1:9",
      },
      stdio: ["ignore", "pipe", "pipe"],
    })
    child.stdout.on("data", (chunk) => output.push(chunk))
    child.stderr.on("data", (chunk) => output.push(chunk))
    child.on("error", reject)
    child.on("exit", resolve)
  })
  if (code !== 0) {
    throw new Error(
      `medusa db:migrate into ${MIGRATED_TEMPLATE} exited ${code}:\n${Buffer.concat(output).toString().slice(-4000)}`
    )
  }
  await forgetProviders(url)
  process.env.LASTMILE_MIGRATED_TEMPLATE = MIGRATED_TEMPLATE
}

/**
 * The migrating boot registered its own providers (the lastmile one under its default id, Medusa's local notification
 * provider on each channel); each suite's boot registers its own, as on a database migrated by the test runner.
 */
async function forgetProviders(url) {
  const client = new Client({ connectionString: url })
  await client.connect()
  try {
    const { rows } = await client.query(
      `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_name LIKE '%\\_provider'`
    )
    for (const { table_name: table } of rows) {
      await client.query(`DELETE FROM "${table}"`)
    }
  } finally {
    await client.end()
  }
}

export async function dropMigratedTemplate() {
  const { utils, closeWaitingroomClient } = testDatabases()
  await utils.dropTemplate(MIGRATED_TEMPLATE)
  await closeWaitingroomClient()
}
