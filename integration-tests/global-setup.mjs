/**
 * The database for the tests: DB_HOST's (with the DB_* variables) when set, else an embedded PostgreSQL for the whole
 * run, so `npm test` passes on a machine that has only Node. Test workers inherit the DB_* variables.
 */
import { startEmbeddedDatabase } from "../scripts/embedded-database.mjs"
import { migrateTemplate } from "./migrated-template.mjs"

export default async function globalSetup() {
  if (process.env.DB_HOST) {
    // The test runner builds create/drop connections without a user otherwise.
    process.env.DB_USERNAME ??= "postgres"
    await migrated()
    return
  }
  const started = Date.now()
  const database = await startEmbeddedDatabase({ throwaway: true })
  globalThis.__LASTMILE_EMBEDDED_DB__ = database
  process.env.DB_HOST = database.host
  process.env.DB_PORT = String(database.port)
  process.env.DB_USERNAME = database.user
  process.env.DB_PASSWORD = database.password
  process.stdout.write(`\nembedded PostgreSQL on localhost:${database.port} (started in ${Date.now() - started} ms)\n`)
  await migrated()
}

async function migrated() {
  const started = Date.now()
  await migrateTemplate()
  process.stdout.write(`migrated template database in ${Date.now() - started} ms\n`)
}
