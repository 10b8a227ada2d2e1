export default async function globalTeardown() {
  const database = globalThis.__LASTMILE_EMBEDDED_DB__
  if (database) {
    await database.stop()
  }
}
