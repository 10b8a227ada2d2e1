/**
 * A merchant's Medusa app made from scratch in a temporary folder from the packed tarballs and the README's
 * medusa-config.ts and .env, for the install, cluster and reliability tests (built and started for production).
 */
import { type ChildProcess, spawn } from "node:child_process"
import { createHash } from "node:crypto"
import {
  copyFileSync,
  createWriteStream,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs"
import { tmpdir } from "node:os"
import { basename, join } from "node:path"
import { Client } from "@medusajs/framework/pg"

export const REPO_DIR = join(__dirname, "..", "..", "..")
const MEDUSA_VERSION = "2.21.2"

/** Runs a command to its end; rejects with the tail of its output when it fails. */
export function run(
  command: string,
  args: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv }
): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: ["ignore", "pipe", "pipe"],
    })
    let output = ""
    child.stdout.on("data", (chunk) => (output += String(chunk)))
    child.stderr.on("data", (chunk) => (output += String(chunk)))
    child.on("error", reject)
    child.on("exit", (code) =>
      code === 0
        ? resolve(output)
        : reject(
            new Error(`${command} ${args.join(" ")} exited with ${code} in ${options.cwd}:\n${output.slice(-6000)}`)
          )
    )
  })
}

/**
 * The fenced code block whose first line is `firstLine`, in README.md or a
 * page of docs/ (Deploying, the admin API). The tests follow the docs
 * literally, so a step missing there fails them.
 */
export function readmeBlock(firstLine: string): string {
  const docs = join(REPO_DIR, "docs")
  const pages = [
    join(REPO_DIR, "README.md"),
    ...readdirSync(docs)
      .filter((name) => name.endsWith(".md"))
      .map((name) => join(docs, name)),
  ]
  for (const page of pages) {
    const blocks = [...readFileSync(page, "utf8").matchAll(/```[a-z]*\n([\s\S]*?)```/g)].map((m) => m[1])
    const block = blocks.find((b) => b.split("\n")[0].trim() === firstLine)
    if (block) {
      return block
    }
  }
  throw new Error(`neither README.md nor docs/ has a code block starting with "${firstLine}"`)
}

/** `KEY=value` lines of a README .env block. */
export function envLines(block: string): Record<string, string> {
  return Object.fromEntries(
    block
      .split("\n")
      .map((line) => line.trim())
      .filter((line) => line && !line.startsWith("#"))
      .map((line) => {
        const at = line.indexOf("=")
        return [line.slice(0, at), line.slice(at + 1)]
      })
  )
}

/**
 * The tarball CI packed once for every system test (LASTMILE_PACKED_DIR), copied into `into`: CI's one build, though
 * the demo and the type-check build the storefront package again before the system tests run.
 */
function packedOnce(name: string, into: string): string | null {
  const dir = process.env.LASTMILE_PACKED_DIR
  if (!dir) {
    return null
  }
  const file = readdirSync(dir).find((f) => f.startsWith(`${name}-`) && /^\d/.test(f.slice(name.length + 1)))
  if (!file) {
    throw new Error(`LASTMILE_PACKED_DIR (${dir}) holds no ${name} tarball`)
  }
  copyFileSync(join(dir, file), join(into, file))
  return join(into, file)
}

/**
 * `npm pack` of this repository (built first, the workspace packages with it): the tarball a merchant installs.
 * CI builds once and says so with LASTMILE_PLUGIN_BUILT=1, and packs once (LASTMILE_PACKED_DIR).
 */
export async function packPlugin(into: string): Promise<string> {
  const packed = packedOnce("medusa-plugin-lastmile", into)
  if (packed) {
    return packed
  }
  if (process.env.LASTMILE_PLUGIN_BUILT !== "1" || !existsSync(join(REPO_DIR, ".medusa", "server"))) {
    await run("npm", ["run", "build"], { cwd: REPO_DIR })
  }
  const out = await run("npm", ["pack", "--silent", "--pack-destination", into], { cwd: REPO_DIR })
  const name = out.trim().split("\n").pop()!.trim()
  return join(into, name)
}

/**
 * `npm pack` of a workspace package (built first): the plugin's dependencies (packages/storefront, which a
 * storefront also installs alone, and packages/simulator). CI's one build includes them; not building again also
 * keeps two system tests run side by side off the same files.
 */
export async function packWorkspacePackage(name: "storefront" | "simulator", into: string): Promise<string> {
  const packed = packedOnce(`medusa-plugin-lastmile-${name}`, into)
  if (packed) {
    return packed
  }
  const dir = join(REPO_DIR, "packages", name)
  if (process.env.LASTMILE_PLUGIN_BUILT !== "1" || !existsSync(join(dir, "dist"))) {
    await run("npm", ["run", "build", "--silent"], { cwd: dir })
  }
  const out = await run("npm", ["pack", "--silent", "--pack-destination", into], { cwd: dir })
  return join(into, out.trim().split("\n").pop()!.trim())
}

/**
 * A plain Medusa 2.21 app's package.json (what create-medusa-app makes),
 * plus the tarball, and the tarballs of the workspace packages the plugin
 * depends on (all come from the registry once published). `@medusajs/ui` is the version Medusa 2.21.2 pairs with
 * (4.2.8 pulls icons 2.22 and conflicts with Medusa 2.21's own draft-order,
 * plugin or not); the plugin's peer ranges accept both.
 */
export function writeHostPackage(
  appDir: string,
  tarballs: { plugin: string; storefront: string; simulator: string },
  extra: Record<string, string> = {}
): void {
  const medusa = (name: string) => [`@medusajs/${name}`, MEDUSA_VERSION]
  const pkg = {
    name: "lastmile-host-app",
    version: "0.0.1",
    private: true,
    scripts: { build: "medusa build", start: "medusa start", dev: "medusa develop" },
    dependencies: {
      ...Object.fromEntries(
        ["admin-sdk", "cli", "framework", "medusa", "caching", "draft-order", "dashboard", "admin-shared"].map(medusa)
      ),
      "@medusajs/ui": "4.2.6",
      "@tanstack/react-query": "5.64.2",
      "react-i18next": "13.5.0",
      "react-router-dom": "6.30.4",
      "medusa-plugin-lastmile": `file:${tarballs.plugin}`,
      "medusa-plugin-lastmile-storefront": `file:${tarballs.storefront}`,
      "medusa-plugin-lastmile-simulator": `file:${tarballs.simulator}`,
      ...extra,
    },
    devDependencies: {
      "@swc/core": "1.16.18",
      "@types/node": "^20.12.11",
      "@types/react": "^18.3.2",
      "@types/react-dom": "^18.2.25",
      "prop-types": "^15.8.1",
      react: "^18.3.1",
      "react-dom": "^18.3.1",
      "ts-node": "^10.9.2",
      typescript: "^5.6.2",
      vite: "^5.4.14",
    },
    // npm 11 runs no install scripts unless listed; Medusa's own need none of these.
    allowScripts: {
      esbuild: true,
      "@swc/core": true,
      "@medusajs/telemetry": false,
      protobufjs: false,
      "msgpackr-extract": false,
    },
    overrides: { "@swc/core": "1.16.18" },
  }
  writeFileSync(join(appDir, "package.json"), JSON.stringify(pkg, null, 2))
  writeFileSync(
    join(appDir, "tsconfig.json"),
    JSON.stringify(
      {
        compilerOptions: {
          target: "ES2021",
          esModuleInterop: true,
          module: "Node16",
          moduleResolution: "Node16",
          emitDecoratorMetadata: true,
          experimentalDecorators: true,
          skipLibCheck: true,
          skipDefaultLibCheck: true,
          declaration: false,
          sourceMap: false,
          inlineSourceMap: true,
          outDir: "./.medusa/server",
          rootDir: "./",
          jsx: "react-jsx",
          forceConsistentCasingInFileNames: true,
          resolveJsonModule: true,
          checkJs: false,
          strictNullChecks: true,
        },
        "ts-node": { swc: true },
        include: ["**/*", ".medusa/types/*"],
        exclude: ["node_modules", ".medusa/server", ".medusa/admin", "dist"],
      },
      null,
      2
    )
  )
}

export async function npmInstall(dir: string): Promise<void> {
  await run("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", "--loglevel=error"], { cwd: dir })
}

export interface Database {
  /** postgres://… of the server, without a database name. */
  serverUrl: string
  stop(): Promise<void>
}

/** The machine's PostgreSQL when DB_HOST is set (as the tests find it), else an embedded one. */
export async function startDatabase(): Promise<Database> {
  if (process.env.DB_HOST) {
    const user = encodeURIComponent(process.env.DB_USERNAME ?? "postgres")
    const password = process.env.DB_PASSWORD ? `:${encodeURIComponent(process.env.DB_PASSWORD)}` : ""
    return {
      serverUrl: `postgres://${user}${password}@${process.env.DB_HOST}:${process.env.DB_PORT ?? "5432"}`,
      stop: async () => undefined,
    }
  }
  const { startEmbeddedDatabase } = await import("../../../scripts/embedded-database.mjs")
  const db = await startEmbeddedDatabase({ throwaway: true })
  return { serverUrl: `postgres://${db.user}:${db.password}@${db.host}:${db.port}`, stop: () => db.stop() }
}

export async function createDatabase(serverUrl: string, name: string): Promise<string> {
  const client = new Client({ connectionString: `${serverUrl}/postgres` })
  await client.connect()
  try {
    await client.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`)
  } finally {
    await client.end()
  }
  return `${serverUrl}/${name}`
}

export async function dropDatabase(serverUrl: string, name: string): Promise<void> {
  const client = new Client({ connectionString: `${serverUrl}/postgres` })
  await client.connect()
  try {
    await client.query(`DROP DATABASE IF EXISTS "${name.replace(/"/g, '""')}" WITH (FORCE)`)
  } finally {
    await client.end()
  }
}

export async function waitForHealth(url: string, timeoutMs: number, process_?: ChildProcess): Promise<void> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    if (process_ && process_.exitCode !== null) {
      throw new Error(`the process for ${url} exited with ${process_.exitCode} before answering`)
    }
    try {
      if ((await fetch(`${url}/health`)).ok) {
        return
      }
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) {
      throw new Error(`nothing answered on ${url}/health within ${timeoutMs / 1000} s`)
    }
    await new Promise((resolve) => setTimeout(resolve, 500))
  }
}

const running = new Set<ChildProcess>()
// Whatever ends this process (a crash included), no server is left behind holding its port and CPU.
process.once("exit", () => {
  for (const child of running) {
    try {
      process.kill(-child.pid!, "SIGKILL")
    } catch {
      // already gone
    }
  }
})

/** A long-running child in its own process group, its output in `logFile`; killed when this process exits. */
export function startProcess(
  command: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; logFile: string }
): ChildProcess {
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: options.env,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  })
  const log = createWriteStream(options.logFile, { flags: "a" })
  // Both streams share the file: neither may close it when it ends.
  child.stdout?.pipe(log, { end: false })
  child.stderr?.pipe(log, { end: false })
  running.add(child)
  child.once("exit", () => {
    running.delete(child)
    setTimeout(() => log.end(), 100)
  })
  return child
}

/** One instance of the built app: `medusa start` in production, as a server or the worker, its log in `logDir`. */
export function startInstance(options: {
  serverDir: string
  env: NodeJS.ProcessEnv
  name: string
  port: number
  mode: "server" | "worker"
  logDir: string
}): ChildProcess {
  return startProcess("npx", ["medusa", "start"], {
    cwd: options.serverDir,
    env: {
      ...options.env,
      NODE_ENV: "production",
      PORT: String(options.port),
      MEDUSA_WORKER_MODE: options.mode,
      ...(options.mode === "worker" ? { DISABLE_MEDUSA_ADMIN: "true" } : {}),
    },
    logFile: join(options.logDir, `${options.name}.log`),
  })
}

/** The end of each log that exists, for a failed run's output. */
export function logTails(dir: string, files: string[], chars = 2500): string {
  return files
    .filter((file) => existsSync(join(dir, file)))
    .map((file) => `--- tail of ${file}\n${readFileSync(join(dir, file), "utf8").slice(-chars)}`)
    .join("\n")
}

/** Stops a child and its group: SIGTERM, then SIGKILL after `graceMs` (or at once with "SIGKILL"). */
export async function stopProcess(
  child: ChildProcess,
  signal: NodeJS.Signals = "SIGTERM",
  graceMs = 5000
): Promise<void> {
  if (!child.pid || child.exitCode !== null || child.signalCode !== null) {
    return
  }
  const exited = new Promise((resolve) => child.once("exit", resolve))
  const send = (name: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, name)
    } catch {
      // already gone
    }
  }
  send(signal)
  await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, signal === "SIGKILL" ? 2000 : graceMs))])
  send("SIGKILL")
  await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 2000))])
}

/** The JS files of the admin bundle, crawled from /app as a browser would load them. */
export async function adminBundle(baseUrl: string): Promise<string> {
  const html = await (await fetch(`${baseUrl}/app`)).text()
  const seen = new Set<string>()
  const queue = [...html.matchAll(/(?:src|href)="([^"]+\.js)"/g)].map((m) => new URL(m[1], `${baseUrl}/app/`).href)
  let text = ""
  while (queue.length && seen.size < 2000) {
    const url = queue.shift()!
    if (seen.has(url)) {
      continue
    }
    seen.add(url)
    const response = await fetch(url)
    if (!response.ok) {
      continue
    }
    const body = await response.text()
    text += body
    for (const match of body.matchAll(/["'`](\.{0,2}\/?(?:assets\/)?[\w.-]+\.js)["'`]/g)) {
      queue.push(new URL(match[1], url).href)
    }
  }
  return text
}

export interface HostApp {
  appDir: string
  serverDir: string
  /** The storefront package's tarball the app was given. */
  storefrontTarball: string
}

/** How a host app is built: its config, the env `medusa build` runs with, and whether it is shared. */
export interface HostAppBuild {
  /** The README block whose first line this is becomes medusa-config.ts. */
  configFirstLine: string
  env: NodeJS.ProcessEnv
  log: (line: string) => void
  /**
   * Reuse an app built earlier from the same tarball and config (in the
   * system's temporary folder, the latest only). The install test never does.
   */
  reuse?: boolean
  /** Where the tarballs go, and a fresh app when not reused. */
  work: string
  /**
   * The build's `node_modules` linked to the app's rather than installed again (`npm install` in `.medusa/server`):
   * the same packages, for the cluster and fault apps; the install test runs the README's path as written.
   */
  linkServerModules?: boolean
}

export interface HostAppOptions extends HostAppBuild {
  /** The app's .env (also copied as the build's .env.production). */
  dotenv: Record<string, string>
  admin: { email: string; password: string }
}

/**
 * The app of the cluster and fault tests (README, Deploying's config on several instances), built without its admin
 * bundle (docs/deploying.md's DISABLE_MEDUSA_ADMIN): those tests use the HTTP APIs, and the install test builds and
 * crawls the bundle. CI builds it once, while the other tests run (build-cluster-app.ts).
 */
export const CLUSTER_APP = {
  configFirstLine: "// medusa-config.ts, deployed on several instances",
  reuse: true,
  linkServerModules: true,
  env: { DISABLE_MEDUSA_ADMIN: "true" },
} as const

/**
 * Packs the plugin and builds the app: package.json, the README's
 * medusa-config.ts, `npm install`, `medusa build`, then `npm install` in the
 * build output (README, Deploying), or the same app built earlier when reused.
 */
export async function buildHostApp(options: HostAppBuild): Promise<HostApp> {
  const { log, env } = options
  log(`packing the plugin into ${options.work}`)
  const tarball = await packPlugin(options.work)
  const storefrontTarball = await packWorkspacePackage("storefront", options.work)
  const simulatorTarball = await packWorkspacePackage("simulator", options.work)
  const config = readmeBlock(options.configFirstLine)
  const key = createHash("sha256")
    .update(readFileSync(tarball))
    .update(readFileSync(storefrontTarball))
    .update(readFileSync(simulatorTarball))
    .update(config)
    // An app built without its admin bundle is another app.
    .update(
      `admin disabled: ${env.DISABLE_MEDUSA_ADMIN === "true"}; server modules linked: ${!!options.linkServerModules}`
    )
    .digest("hex")
    .slice(0, 16)
  const appDir = options.reuse ? join(tmpdir(), `${CACHED_PREFIX}${key}`) : join(options.work, "app")
  const serverDir = join(appDir, ".medusa", "server")
  if (options.reuse && existsSync(join(appDir, ".built"))) {
    log(`reusing the app built from the same tarball and config: ${appDir}`)
    return { appDir, serverDir, storefrontTarball }
  }
  if (options.reuse) {
    for (const old of readdirSync(tmpdir()).filter((name) => name.startsWith(CACHED_PREFIX))) {
      rmSync(join(tmpdir(), old), { recursive: true, force: true })
    }
  }
  mkdirSync(appDir, { recursive: true })
  const kept = {
    plugin: join(appDir, basename(tarball)),
    storefront: join(appDir, basename(storefrontTarball)),
    simulator: join(appDir, basename(simulatorTarball)),
  }
  copyFileSync(tarball, kept.plugin)
  copyFileSync(storefrontTarball, kept.storefront)
  copyFileSync(simulatorTarball, kept.simulator)
  log("creating a plain Medusa 2.21 app and installing the tarballs (npm install)")
  writeHostPackage(appDir, kept)
  writeFileSync(join(appDir, "medusa-config.ts"), config)
  await npmInstall(appDir)
  log(
    `medusa build, then ${options.linkServerModules ? "its node_modules linked to the app's" : "npm install in .medusa/server"}`
  )
  await run("npx", ["medusa", "build"], { cwd: appDir, env })
  if (options.linkServerModules) {
    symlinkSync(join(appDir, "node_modules"), join(serverDir, "node_modules"), "dir")
  } else {
    await npmInstall(serverDir)
  }
  writeFileSync(join(appDir, ".built"), new Date().toISOString())
  return { appDir, serverDir, storefrontTarball }
}

/**
 * The app built (buildHostApp), then for this run its `.env` (copied as the build's `.env.production`), migrations
 * and an admin user.
 */
export async function prepareHostApp(options: HostAppOptions): Promise<HostApp> {
  const { log, env } = options
  const app = await buildHostApp(options)
  const dotenv =
    Object.entries(options.dotenv)
      .map(([k, v]) => `${k}=${v}`)
      .join("\n") + "\n"
  writeFileSync(join(app.appDir, ".env"), dotenv)
  writeFileSync(join(app.serverDir, ".env.production"), dotenv)
  log("medusa db:migrate, and an admin user")
  await run("npx", ["medusa", "db:migrate"], { cwd: app.appDir, env })
  await run("npx", ["medusa", "user", "-e", options.admin.email, "-p", options.admin.password], {
    cwd: app.appDir,
    env,
  })
  return app
}

const CACHED_PREFIX = "lastmile-host-app-"

/** The env a host app's commands run with: this repository's own database and Redis settings removed. */
export function hostEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, MEDUSA_DISABLE_TELEMETRY: "true", ...extra }
  for (const key of ["DB_HOST", "DB_PORT", "DB_USERNAME", "DB_PASSWORD", "DB_NAME", "DATABASE_URL", "REDIS_URL"]) {
    if (!(key in extra)) {
      delete env[key]
    }
  }
  return env
}
