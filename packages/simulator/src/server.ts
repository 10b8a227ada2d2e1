/**
 * A stateful HTTP simulator of the last-mile service, with fault injection, a request log and a control API under
 * /__sim (docs/simulator.md).
 */
import { timingSafeEqual } from "node:crypto"
import { type IncomingMessage, type Server, type ServerResponse, createServer } from "node:http"
import type { AddressInfo, Socket } from "node:net"
import { defaultConfig, mergeConfig, profileConfig } from "./defaults"
import { locationOf, locationPatchOf, stockPatchOf } from "./location-input"
import { SimulatorError, SimulatorState } from "./simulator-state"
import { publicTask } from "./task-view"
import type {
  Fault,
  FaultKind,
  RequestLogEntry,
  SimLocation,
  SimTask,
  SimulatorConfig,
  SimulatorConfigPatch,
  SimulatorOperation,
  SimulatorProfile,
} from "./types"
import { WebhookSender } from "./webhook-sender"

export interface SimulatorOptions {
  /** Applied first; `config` goes on top. Default "default". */
  profile?: SimulatorProfile
  config?: SimulatorConfigPatch
  locations?: SimLocation[]
  /** The simulator's clock (ms since epoch); real time when unset. */
  clock?: () => number
}

interface ActiveFault extends Fault {
  remaining: number
}

const MAX_BODY_BYTES = 1024 * 1024

export class LastmileSimulator {
  readonly state: SimulatorState
  readonly webhooks: WebhookSender
  private readonly log: RequestLogEntry[] = []
  private faults: ActiveFault[] = []
  private readonly server: Server
  private readonly sockets = new Set<Socket>()
  private readonly clock: () => number
  private clockOffsetMs = 0
  private seq = 0
  private listeningUrl = ""

  constructor(options: SimulatorOptions = {}) {
    this.clock = options.clock ?? Date.now
    this.webhooks = new WebhookSender(() => this.state.config)
    const config = defaultConfig(mergeConfig(profileConfig(options.profile ?? "default"), options.config ?? {}))
    this.state = new SimulatorState(config, structuredClone(options.locations ?? []), {
      onStatusChange: (task) => this.webhooks.statusChanged(task, this.now()),
      baseUrl: () => this.listeningUrl,
    })
    this.server = createServer((req, res) => {
      // Whatever a request holds, the simulator answers and keeps running (an unhandled rejection would stop it).
      this.handle(req, res).catch((error: unknown) =>
        send(res, 500, { error: { code: "INTERNAL", message: error instanceof Error ? error.message : String(error) } })
      )
    })
    this.server.on("connection", (socket) => {
      this.sockets.add(socket)
      socket.on("close", () => this.sockets.delete(socket))
    })
  }

  // ------------------------------------------------------------ lifecycle

  async start(port = 0, host = "127.0.0.1"): Promise<string> {
    await new Promise<void>((resolve, reject) => {
      this.server.once("error", reject)
      this.server.listen(port, host, () => resolve())
    })
    const address = this.server.address() as AddressInfo
    this.listeningUrl = `http://${host}:${address.port}`
    return this.listeningUrl
  }

  get url(): string {
    return this.listeningUrl
  }

  async stop(): Promise<void> {
    await this.webhooks.stop()
    for (const socket of this.sockets) {
      socket.destroy()
    }
    await new Promise<void>((resolve) => this.server.close(() => resolve()))
  }

  // ------------------------------------------------------------ test API

  now(): number {
    return this.clock() + this.clockOffsetMs
  }

  /** Moves the simulator's clock (e.g. to make quotes stale). */
  advanceClock(ms: number): void {
    this.clockOffsetMs += ms
  }

  configure(patch: SimulatorConfigPatch): SimulatorConfig {
    this.state.config = mergeConfig(this.state.config, patch)
    return this.state.config
  }

  /**
   * Starts over from a profile (then `patch`), keeping how the simulator is
   * reached: its API key, public URL and webhook settings.
   */
  useProfile(profile: SimulatorProfile, patch: SimulatorConfigPatch = {}): SimulatorConfig {
    const { apiKey, publicUrl, webhookUrl, webhook } = this.state.config
    this.state.config = defaultConfig(
      mergeConfig(mergeConfig(profileConfig(profile), { apiKey, publicUrl, webhookUrl, webhook }), patch)
    )
    return this.state.config
  }

  setLocations(locations: SimLocation[]): void {
    this.state.locations = structuredClone(locations)
  }

  /** The stored location (changing it changes the service); throws a 404 SimulatorError when none. */
  location(idOrExternalId: string): SimLocation {
    return this.state.findLocation(idOrExternalId)
  }

  // The merchant changes locations at the service while the app runs. Each
  // input is checked as the control API checks it (a 400 SimulatorError).

  /** Adds a location; 409 when its fulfilmentLocationId is taken. */
  addLocation(location: SimLocation): SimLocation {
    return this.state.addLocation(locationOf(location))
  }

  /** Removes a location by fulfilmentLocationId or externalLocationId and returns it. */
  removeLocation(idOrExternalId: string): SimLocation {
    return this.state.removeLocation(idOrExternalId)
  }

  /** Replaces the given fields (a rename, collectionEnabled, hours...) and returns the location. */
  updateLocation(idOrExternalId: string, patch: Partial<SimLocation>): SimLocation {
    return this.state.updateLocation(idOrExternalId, locationPatchOf(patch))
  }

  /** Merges `{ "<sku>": units }` into the location's stock and returns the location. */
  setStock(idOrExternalId: string, stock: Record<string, number>): SimLocation {
    return this.state.setStock(idOrExternalId, stockPatchOf(stock))
  }

  addFault(fault: Fault): void {
    this.faults.push({ ...fault, remaining: fault.times ?? Number.POSITIVE_INFINITY })
  }

  clearFaults(): void {
    this.faults = []
  }

  /** Every request received, oldest first; filter by operation. */
  requests(operation?: SimulatorOperation): RequestLogEntry[] {
    return operation ? this.log.filter((e) => e.operation === operation) : [...this.log]
  }

  clearRequests(): void {
    this.log.length = 0
  }

  tasks(): SimTask[] {
    return this.state.tasks
  }

  setTaskStatus(taskId: number, value: string): SimTask {
    return this.state.setStatus(taskId, value, this.now())
  }

  advanceTask(taskId: number): SimTask {
    return this.state.advance(taskId, this.now())
  }

  /** The courier fails an attempt at a delivery on its way: status `failedAttemptStatus`, with its webhook. */
  failAttempt(taskId: number): SimTask {
    return this.state.failAttempt(taskId, this.now())
  }

  /** The merchant cancels the task in the service's app: status `cancelledStatus`, with its webhook. */
  cancelTask(taskId: number): SimTask {
    return this.state.cancel(taskId, this.now())
  }

  // ------------------------------------------------------------ HTTP

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://simulator")
    const method = req.method ?? "GET"
    let raw: string
    try {
      raw = await readBody(req)
    } catch {
      return send(res, 413, { error: { code: "PAYLOAD_TOO_LARGE", message: "Body over 1 MB" } })
    }
    if (url.pathname.startsWith("/__sim/")) {
      const refusal = controlRefusal(req.headers, this.server.address() as AddressInfo | null)
      if (refusal) {
        return send(res, 403, { error: { code: "FORBIDDEN", message: refusal } })
      }
      return this.control(method, url, raw, res)
    }
    if (method === "GET" && url.pathname.startsWith("/track/")) {
      return this.trackingPage(decodedOrNull(url.pathname.slice("/track/".length)), res)
    }

    const operation = this.route(method, url.pathname)
    let body: unknown = undefined
    let bodyError: string | null = null
    if (raw) {
      try {
        body = JSON.parse(raw)
      } catch {
        bodyError = "Body is not valid JSON"
      }
    }
    const entry: RequestLogEntry = {
      seq: ++this.seq,
      at: new Date(this.now()).toISOString(),
      method,
      path: url.pathname,
      operation,
      query: Object.fromEntries(url.searchParams),
      body,
      apiKeyValid: this.keyMatches(req.headers["x-api-key"]),
      contentType: req.headers["content-type"] ?? null,
      status: null,
      fault: null,
    }
    this.log.push(entry)
    const reply = (status: number, payload: unknown, headers: Record<string, string> = {}) => {
      entry.status = status
      send(res, status, payload, headers)
    }

    if (!operation) {
      return reply(404, { error: { code: "NOT_FOUND", message: `No route ${method} ${url.pathname}` } })
    }
    if (!entry.apiKeyValid) {
      return reply(401, { error: { code: "UNAUTHORIZED", message: "Missing or invalid x-api-key" } })
    }
    if (raw && !(entry.contentType ?? "").toLowerCase().startsWith("application/json")) {
      return reply(415, { error: { code: "UNSUPPORTED_MEDIA_TYPE", message: "Content-Type must be application/json" } })
    }
    if (bodyError) {
      return reply(400, { error: { code: "INVALID_JSON", message: bodyError } })
    }

    const fault = this.takeFault(operation)
    if (fault?.kind === "latency") {
      await sleep(fault.latencyMs ?? 0)
    } else if (fault) {
      entry.fault = fault.kind
      if (fault.kind === "dropAfterCommit" || fault.commit) {
        this.commitQuietly(() => this.apply(operation, url, body))
      }
      switch (fault.kind as FaultKind) {
        case "reset":
        case "dropAfterCommit":
          res.socket?.destroy()
          return
        case "timeout":
          // Never answer: the client's own timeout must end the call.
          return
        case "malformed":
          entry.status = 200
          res.writeHead(200, { "content-type": "application/json" })
          res.end('{"rates": [{"rateCode": ')
          return
        case "status": {
          const status = fault.status ?? 503
          const headers: Record<string, string> =
            status === 429 && fault.retryAfterSeconds !== undefined
              ? { "retry-after": String(fault.retryAfterSeconds) }
              : {}
          const code = status === 429 ? "RATE_LIMITED" : status >= 400 && status < 500 ? "REJECTED" : "SERVER_ERROR"
          return reply(status, { error: { code, message: "Injected fault" } }, headers)
        }
      }
    }

    try {
      const { status, payload } = this.apply(operation, url, body)
      reply(status, payload)
    } catch (error) {
      if (error instanceof SimulatorError) {
        return reply(error.status, error.toBody())
      }
      reply(500, { error: { code: "INTERNAL", message: error instanceof Error ? error.message : String(error) } })
    }
  }

  private route(method: string, path: string): SimulatorOperation | null {
    if (method === "POST" && (path === "/task/quotes" || path === "/quotes")) {
      return "quote"
    }
    if (path === "/task/deliveries") {
      return method === "POST" ? "bookDelivery" : method === "GET" ? "lookupDelivery" : null
    }
    if (method === "POST" && path === "/task/returns") {
      return "bookReturn"
    }
    if (method === "GET" && path === this.state.config.locationsListPath) {
      return "listLocations"
    }
    if (method === "PATCH" && /^\/fulfilment\/fulfilment-locations\/[^/]+$/.test(path)) {
      return "updateLocation"
    }
    return null
  }

  private apply(operation: SimulatorOperation, url: URL, body: unknown): { status: number; payload: unknown } {
    const now = this.now()
    switch (operation) {
      case "quote":
        return { status: 200, payload: this.state.quote(body, now) }
      case "bookDelivery":
      case "bookReturn": {
        const { created, task } = this.state.book(operation === "bookDelivery" ? "DELIVERY" : "RETURN", body, now)
        const payload = publicTask(task, this.state.config)
        if (this.state.config.bookingAnswer === "no_tracking_url") {
          payload.trackingUrl = null
        }
        return { status: created ? 201 : 200, payload }
      }
      case "lookupDelivery": {
        const merchantOrderId = url.searchParams.get("merchantOrderId")
        if (!merchantOrderId) {
          throw new SimulatorError(400, "VALIDATION_ERROR", "merchantOrderId is required", {
            missing: ["merchantOrderId"],
          })
        }
        const tasks = this.state.lookup(merchantOrderId).map((task) => publicTask(task, this.state.config))
        switch (this.state.config.lookupShape) {
          case "single":
            if (!tasks.length) {
              throw new SimulatorError(404, "NOT_FOUND", `No task for merchantOrderId ${merchantOrderId}`)
            }
            return { status: 200, payload: tasks[tasks.length - 1] }
          case "envelope":
            return { status: 200, payload: { tasks } }
          default:
            return { status: 200, payload: tasks }
        }
      }
      case "listLocations": {
        const locations = this.state.publicLocations()
        switch (this.state.config.locationsShape) {
          case "envelope":
            return { status: 200, payload: { fulfilmentLocations: locations } }
          case "paged":
            return { status: 200, payload: this.locationsPage(locations, url) }
          default:
            return { status: 200, payload: locations }
        }
      }
      case "updateLocation": {
        const id = decodedOrNull(url.pathname.split("/").pop() as string)
        if (id === null) {
          throw new SimulatorError(404, "NOT_FOUND", "No fulfilment location with that id")
        }
        return { status: 200, payload: this.state.publicLocation(this.state.patchLocation(id, body)) }
      }
    }
  }

  /** One page of the "paged" location list: `?page=N` (from 1), with a link to the next page while there is one. */
  private locationsPage(locations: unknown[], url: URL): Record<string, unknown> {
    const raw = url.searchParams.get("page") ?? "1"
    const page = /^\d+$/.test(raw) ? Number(raw) : NaN
    if (!(page >= 1)) {
      throw new SimulatorError(400, "VALIDATION_ERROR", "page must be a whole number from 1", { invalid: ["page"] })
    }
    const size = Math.max(1, Math.floor(this.state.config.locationsPageSize))
    const data = locations.slice((page - 1) * size, page * size)
    const next = page * size < locations.length ? `${url.pathname}?page=${page + 1}` : null
    return { data, next }
  }

  /** Applies a request whose answer a fault will replace; its own errors do not matter then. */
  private commitQuietly(fn: () => unknown): void {
    try {
      fn()
    } catch {
      // The injected fault decides what the client sees.
    }
  }

  private takeFault(operation: SimulatorOperation): ActiveFault | undefined {
    const fault = this.faults.find((f) => (f.operation === operation || f.operation === "*") && f.remaining > 0)
    if (fault) {
      fault.remaining--
      if (fault.remaining <= 0) {
        this.faults = this.faults.filter((f) => f !== fault)
      }
    }
    return fault
  }

  private keyMatches(header: string | string[] | undefined): boolean {
    const given = Buffer.from(Array.isArray(header) ? (header[0] ?? "") : (header ?? ""))
    const expected = Buffer.from(this.state.config.apiKey)
    return given.length === expected.length && timingSafeEqual(given, expected)
  }

  // ------------------------------------------------------------ control API

  private control(method: string, url: URL, raw: string, res: ServerResponse): void {
    let parsed: unknown = {}
    try {
      parsed = raw ? JSON.parse(raw) : {}
    } catch {
      return send(res, 400, { error: { code: "INVALID_JSON", message: "Body is not valid JSON" } })
    }
    const body: Record<string, unknown> =
      parsed && typeof parsed === "object" && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {}
    const path = url.pathname.slice("/__sim".length)
    const taskRoute = /^\/tasks\/(\d+)\/(status|advance|cancel|fail-attempt)$/.exec(path)
    const locationRoute = /^\/locations\/([^/]+)$/.exec(path)
    const stockRoute = /^\/locations\/([^/]+)\/stock$/.exec(path)
    try {
      if (method === "GET" && path === "/requests") {
        const operation = url.searchParams.get("operation") as SimulatorOperation | null
        return send(res, 200, this.requests(operation ?? undefined))
      }
      if (method === "DELETE" && path === "/requests") {
        this.clearRequests()
        return send(res, 204, null)
      }
      if (method === "POST" && path === "/faults") {
        this.addFault(faultOf(body))
        return send(res, 201, body)
      }
      if (method === "DELETE" && path === "/faults") {
        this.clearFaults()
        return send(res, 204, null)
      }
      if (method === "GET" && path === "/config") {
        return send(res, 200, maskedConfig(this.state.config))
      }
      if (method === "PATCH" && path === "/config") {
        // `profile` starts over from that profile; the other fields go on top.
        const { profile, ...patch } = body as SimulatorConfigPatch & { profile?: unknown }
        if (profile !== undefined) {
          if (profile !== "default" && profile !== "strict") {
            return send(res, 400, {
              error: { code: "VALIDATION_ERROR", message: 'profile must be "default" or "strict"' },
            })
          }
          this.useProfile(profile, patch)
        } else {
          this.configure(patch)
        }
        return send(res, 200, maskedConfig(this.state.config))
      }
      if (method === "GET" && path === "/tasks") {
        return send(res, 200, this.state.tasks)
      }
      if (method === "POST" && taskRoute) {
        return send(res, 200, this.taskCommand(Number(taskRoute[1]), taskRoute[2], body))
      }
      if (method === "GET" && path === "/locations") {
        return send(res, 200, this.state.locations)
      }
      if (method === "PUT" && path === "/locations") {
        if (!Array.isArray(parsed)) {
          throw new SimulatorError(400, "BAD_REQUEST", "PUT /__sim/locations takes a list of locations")
        }
        this.setLocations(parsed)
        return send(res, 200, this.state.locations)
      }
      if (method === "POST" && path === "/locations") {
        // `parsed`, not `body`: a list or a bare value must be refused, not read as {}.
        return send(res, 201, this.addLocation(parsed as SimLocation))
      }
      if (method === "DELETE" && locationRoute) {
        return send(res, 200, this.removeLocation(decodeURIComponent(locationRoute[1])))
      }
      if (method === "PATCH" && locationRoute) {
        return send(res, 200, this.updateLocation(decodeURIComponent(locationRoute[1]), parsed as Partial<SimLocation>))
      }
      if (method === "PATCH" && stockRoute) {
        return send(res, 200, this.setStock(decodeURIComponent(stockRoute[1]), parsed as Record<string, number>))
      }
      if (method === "POST" && path === "/clock") {
        this.advanceClock(Number(body.advanceMs ?? 0))
        return send(res, 200, { now: new Date(this.now()).toISOString() })
      }
      if (method === "GET" && path === "/webhooks") {
        return send(res, 200, this.webhooks.attempts)
      }
    } catch (error) {
      if (error instanceof SimulatorError) {
        return send(res, error.status, error.toBody())
      }
      return send(res, 400, {
        error: { code: "BAD_REQUEST", message: error instanceof Error ? error.message : String(error) },
      })
    }
    send(res, 404, { error: { code: "NOT_FOUND", message: `No control route ${method} ${path}` } })
  }

  private taskCommand(taskId: number, command: string, body: Record<string, unknown>): SimTask {
    switch (command) {
      case "advance":
        return this.advanceTask(taskId)
      case "cancel":
        return this.cancelTask(taskId)
      case "fail-attempt":
        return this.failAttempt(taskId)
      default:
        return this.setTaskStatus(taskId, String(body.value ?? ""))
    }
  }

  private trackingPage(trackingId: string | null, res: ServerResponse): void {
    const task = trackingId === null ? undefined : this.state.tasks.find((t) => t.trackingId === trackingId)
    if (!task) {
      res.writeHead(404, { "content-type": "text/html; charset=utf-8" })
      res.end("<!doctype html><title>Not found</title><p>No parcel with that tracking code.</p>")
      return
    }
    const rows = task.statusHistory
      .map((h) => `<li>${escapeHtml(h.value)} <small>${escapeHtml(h.at)}</small></li>`)
      .join("")
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" })
    res.end(
      `<!doctype html><title>Tracking ${escapeHtml(task.trackingId)}</title>` +
        `<h1>Parcel ${escapeHtml(task.trackingId)}</h1><p>Order ${escapeHtml(task.merchantOrderName)}: <b>${escapeHtml(task.status.value)}</b></p><ol>${rows}</ol>`
    )
  }
}

/**
 * Why a control request is refused, or null. The control API has no key, so
 * it answers only what is plainly the merchant's own machine: a loopback
 * Host (a page on another site that points a name at 127.0.0.1 sends its own
 * name) and no Origin but the server's own (a page the merchant opens cannot
 * drive it from the browser). The demo's mailbox is held to the same check
 * (`what` names it in the refusal).
 */
export function controlRefusal(
  headers: IncomingMessage["headers"],
  listening: Pick<AddressInfo, "port"> | null,
  what = "The control API"
): string | null {
  const host = parseHost(headers.host)
  if (!host || !isLoopbackName(host.hostname)) {
    return `${what} answers only on a loopback host (localhost, 127.0.0.1, [::1])`
  }
  const site = headers["sec-fetch-site"]
  if (site === "cross-site" || site === "same-site") {
    return `${what} does not answer requests from web pages`
  }
  const origin = headers.origin
  if (origin !== undefined) {
    const from = origin === "null" ? null : parseHost(origin, true)
    const port = String(listening?.port ?? "")
    if (!from || !isLoopbackName(from.hostname) || from.port !== port) {
      return `${what} does not answer requests from web pages`
    }
  }
  return null
}

/** A Host header (a name or an address, and a port) or an Origin (`scheme://host:port`), read strictly. */
function parseHost(value: string | undefined, isOrigin = false): URL | null {
  const host = isOrigin ? /^https?:\/\/([^/?#@]+)$/i.exec(value ?? "")?.[1] : value
  if (!host || !/^[a-z0-9.\-[\]:]+$/i.test(host)) {
    return null
  }
  try {
    return new URL(`http://${host}`)
  } catch {
    return null
  }
}

function isLoopbackName(hostname: string): boolean {
  return hostname === "localhost" || hostname === "[::1]" || /^127(\.\d{1,3}){3}$/.test(hostname)
}

/** The config as the control API shows it: the API key, the signing secret and the webhook URL's token hidden. */
export function maskedConfig(config: SimulatorConfig): Record<string, unknown> {
  let webhookUrl = config.webhookUrl
  if (webhookUrl) {
    try {
      const url = new URL(webhookUrl)
      // The token is the path's last segment; a query may carry another secret.
      url.pathname = url.pathname.replace(/[^/]+$/, "[hidden]")
      url.search = ""
      url.username = ""
      url.password = ""
      webhookUrl = url.toString()
    } catch {
      webhookUrl = "[hidden]"
    }
  }
  return {
    ...config,
    apiKey: "[set]",
    webhookUrl,
    webhook: { ...config.webhook, signingSecret: config.webhook.signingSecret ? "[set]" : undefined },
  }
}

const FAULT_KINDS: FaultKind[] = ["latency", "status", "timeout", "malformed", "dropAfterCommit", "reset"]

/** A fault from the control API's JSON; a kind it does not know is refused. */
function faultOf(body: Record<string, unknown>): Fault {
  const kind = FAULT_KINDS.find((k) => k === body.kind)
  if (!kind || typeof body.operation !== "string") {
    throw new SimulatorError(400, "BAD_REQUEST", `a fault needs an operation and a kind (${FAULT_KINDS.join(", ")})`)
  }
  const number = (value: unknown) => (typeof value === "number" ? value : undefined)
  return {
    operation: body.operation as Fault["operation"],
    kind,
    times: number(body.times),
    latencyMs: number(body.latencyMs),
    status: number(body.status),
    retryAfterSeconds: number(body.retryAfterSeconds),
    commit: body.commit === true,
  }
}

function send(res: ServerResponse, status: number, payload: unknown, headers: Record<string, string> = {}): void {
  if (res.headersSent || res.destroyed) {
    return
  }
  if (payload === null || status === 204) {
    res.writeHead(status, headers)
    res.end()
    return
  }
  res.writeHead(status, { "content-type": "application/json", ...headers })
  res.end(JSON.stringify(payload))
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of req) {
    size += (chunk as Buffer).length
    if (size > MAX_BODY_BYTES) {
      throw new Error("too large")
    }
    chunks.push(chunk as Buffer)
  }
  return Buffer.concat(chunks).toString("utf8")
}

/** A path segment decoded, or null when it is not valid percent-encoding. */
function decodedOrNull(segment: string): string | null {
  try {
    return decodeURIComponent(segment)
  } catch {
    return null
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
}
