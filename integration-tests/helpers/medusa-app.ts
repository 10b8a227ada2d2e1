/**
 * Medusa's integration test runner, its database copied from the run's migrated template (global setup) rather than
 * migrated again: the runner still runs its migrations and link sync, which find nothing left to do.
 */
import { Client } from "@medusajs/framework/pg"
import { medusaIntegrationTestRunner as medusaRunner } from "@medusajs/test-utils"

type RunnerOptions = Parameters<typeof medusaRunner>[0]

async function copyTemplate(databaseName: string, templateName: string): Promise<void> {
  const client = new Client({
    host: process.env.DB_HOST,
    port: Number(process.env.DB_PORT ?? 5432),
    user: process.env.DB_USERNAME,
    password: process.env.DB_PASSWORD || undefined,
    database: "postgres",
  })
  await client.connect()
  try {
    await client.query(`DROP DATABASE IF EXISTS "${databaseName}" WITH (FORCE)`)
    await client.query(`CREATE DATABASE "${databaseName}" TEMPLATE "${templateName}"`)
  } finally {
    await client.end()
  }
}

export function medusaIntegrationTestRunner(options: RunnerOptions): void {
  const template = process.env.LASTMILE_MIGRATED_TEMPLATE
  const dbName = options.dbName ?? `lastmile-${Date.now().toString(36)}-${process.env.JEST_WORKER_ID ?? "1"}`
  medusaRunner({
    ...options,
    dbName,
    hooks: {
      ...options.hooks,
      beforeServerStart: async (container) => {
        if (template) {
          await copyTemplate(dbName, template)
        }
        await options.hooks?.beforeServerStart?.(container)
      },
    },
  })
}
