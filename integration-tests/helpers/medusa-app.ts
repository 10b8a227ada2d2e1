/**
 * Medusa's integration test runner, its database copied from the run's migrated template (global setup) rather than
 * migrated again: the runner still runs its migrations and link sync, which find nothing left to do.
 */
import { TestDatabaseUtils, medusaIntegrationTestRunner as medusaRunner } from "@medusajs/test-utils"

type RunnerOptions = Parameters<typeof medusaRunner>[0]

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
          // The runner's own helpers: created as the runner creates it, then restored as it restores between tests.
          const databases = TestDatabaseUtils.dbTestUtilFactory()
          await databases.create(dbName)
          await databases.restore({ databaseName: dbName, templateName: template })
        }
        await options.hooks?.beforeServerStart?.(container)
      },
    },
  })
}
