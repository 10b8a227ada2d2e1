import { dropMigratedTemplate } from "./migrated-template.mjs"

export default async function globalTeardown() {
  const database = globalThis.__LASTMILE_EMBEDDED_DB__
  if (database) {
    // The whole server goes, the template with it.
    await database.stop()
  } else {
    await dropMigratedTemplate()
  }
}
