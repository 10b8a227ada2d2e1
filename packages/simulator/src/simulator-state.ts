/**
 * The service's behaviour, without HTTP: quoting, booking, de-duplication,
 * lookups, locations and task status. The server maps requests onto it.
 */
import { randomBytes } from "node:crypto"
import { collectionReadiness, deliveryWindow } from "./collection-readiness"
import type { SimAddress, SimLocation, SimTask, SimulatorConfig } from "./types"

export class SimulatorError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown
  ) {
    super(message)
  }

  toBody(): Record<string, unknown> {
    return { error: { code: this.code, message: this.message, ...(this.details ? { details: this.details } : {}) } }
  }
}

interface QuoteLine {
  merchantProductId: string
  quantity: number
}

interface ValidRequest {
  deliveryType: string
  collection: { address: SimAddress; merchantLocationId?: string }
  delivery: { address: SimAddress }
  customer: { firstName: string; lastName: string; email: string; phoneNumber: string }
  order: { merchantOrderId: string; merchantOrderName: string; lineItems: QuoteLine[]; note?: string }
  rateCode?: string
}

interface StoredRate {
  rateCode: string
  /** The delivery type of a delivery rate (rates may not say it themselves). */
  deliveryType?: string
  /** The store a SVC_COL rate belongs to. */
  externalLocationId?: string | null
  usable: boolean
}

interface StoredQuote {
  createdAt: number
  rates: StoredRate[]
}

const E164 = /^\+[1-9]\d{6,14}$/

export class SimulatorState {
  config: SimulatorConfig
  locations: SimLocation[]
  readonly tasks: SimTask[] = []
  private readonly quotesByOrder = new Map<string, StoredQuote[]>()
  private readonly bookings = new Map<string, SimTask>()
  private nextTaskId = 1001
  private quoteCount = 0
  private readonly onStatusChange: (task: SimTask) => void
  private readonly baseUrl: () => string

  constructor(
    config: SimulatorConfig,
    locations: SimLocation[],
    hooks: { onStatusChange: (task: SimTask) => void; baseUrl: () => string }
  ) {
    this.config = config
    this.locations = locations
    this.onStatusChange = hooks.onStatusChange
    this.baseUrl = hooks.baseUrl
  }

  // ------------------------------------------------------------ quotes

  quote(body: unknown, now: number): Record<string, unknown> {
    const request = this.validate(body, false)
    const config = this.config
    const services = config.deliveryServices.filter((s) => s.deliveryType === request.deliveryType)
    if (!services.length) {
      throw new SimulatorError(
        400,
        "UNSUPPORTED_DELIVERY_TYPE",
        `deliveryType "${request.deliveryType}" is not offered`,
        {
          offered: [...new Set(config.deliveryServices.map((s) => s.deliveryType))],
        }
      )
    }
    const quoteNumber = ++this.quoteCount
    const postcode = normalisePostcode(request.delivery.address.postcode)
    if (config.unservedPostcodePrefixes.some((p) => postcode.startsWith(normalisePostcode(p)))) {
      this.remember(request.order.merchantOrderId, { createdAt: now, rates: [] })
      return { eligibility: "PARTIAL", rates: [] }
    }

    const rates: Record<string, unknown>[] = []
    const stored: StoredRate[] = []
    const noDelivery = config.noDeliveryPostcodePrefixes.some((p) => postcode.startsWith(normalisePostcode(p)))
    const dispatchers = this.locations.filter((l) => l.deliveryEnabled)
    const dispatchable = !dispatchers.length || dispatchers.some((l) => hasStock(l, request.order.lineItems))
    const absent = config.nullOptionalFields ? null : undefined

    // Only the requested type is quoted: each delivery type is a quote of its own.
    for (const service of services) {
      const window = deliveryWindow(now, config.timezone, service.daysAhead, service.windowFrom, service.windowTo)
      const rateCode = config.rateCodes === "per_quote" ? `${service.rateCode}-q${quoteNumber}` : service.rateCode
      const rate: Record<string, unknown> = {
        rateCode,
        name: service.name,
        description:
          service.description ??
          (config.nullOptionalFields
            ? null
            : `Delivered ${service.daysAhead === 0 ? "today" : service.daysAhead === 1 ? "tomorrow" : `in ${service.daysAhead} days`} between ${service.windowFrom} and ${service.windowTo}.`),
        ...(config.rateDeliveryTypeField ? { deliveryType: service.deliveryType } : {}),
        price: { amount: service.price, currency: config.currency },
        window: { from: iso(window.from), to: iso(window.to) },
        co2Savings: service.co2Savings ?? (config.nullOptionalFields ? null : 0),
      }
      if (noDelivery) {
        rate.error = {
          code: "ROUTE_NOT_SERVED",
          message: `${service.name} does not reach ${request.delivery.address.postcode}`,
        }
      } else if (!dispatchable) {
        rate.error = { code: "OUT_OF_STOCK", message: "No delivery location has stock for every item" }
      } else if (service.unavailable !== undefined && service.unavailable !== null && service.unavailable !== false) {
        rate.error = service.unavailable
        // A rate that cannot be offered has no price to show.
        rate.price = absent
      }
      rates.push(withoutUndefined(rate))
      stored.push({ rateCode, deliveryType: service.deliveryType, usable: rate.error === undefined })
    }

    for (const location of this.locations) {
      if (
        request.collection.merchantLocationId &&
        location.externalLocationId !== request.collection.merchantLocationId
      ) {
        continue
      }
      const rate = this.collectionRate(location, request.order.lineItems, now)
      if (!rate) {
        continue
      }
      rates.push(rate)
      stored.push({ rateCode: "SVC_COL", externalLocationId: location.externalLocationId, usable: !rate.error })
    }

    this.remember(request.order.merchantOrderId, { createdAt: now, rates: stored })
    const requestedOffered = stored.some((r) => r.usable && r.deliveryType === request.deliveryType)
    const anyError = rates.some((r) => r.error !== undefined)
    return { eligibility: anyError || !requestedOffered ? "PARTIAL" : "FULL", rates }
  }

  private collectionRate(location: SimLocation, lines: QuoteLine[], now: number): Record<string, unknown> | null {
    const problem = !location.collectionEnabled
      ? { code: "COLLECTION_DISABLED", message: `${location.name} does not offer collection` }
      : !hasStock(location, lines)
        ? { code: "OUT_OF_STOCK", message: `${location.name} does not have every item in stock` }
        : null
    if (problem && this.config.collection.unavailable === "omit") {
      return null
    }
    const cutoff = location.collectionCutoffMinutes ?? this.config.collection.defaultCutoffMinutes
    const readiness = collectionReadiness(now, location.operatingHours, cutoff, this.config.collection.readyInMinutes)
    if (!readiness && !problem) {
      return null
    }
    let readinessText = problem ? "" : (readiness?.message ?? "")
    if (!problem && readiness?.state === "after_cutoff" && location.afterCutoffDescription) {
      readinessText = location.afterCutoffDescription
    }
    const amount = location.collectionPrice ?? this.config.collection.price
    const absent = this.config.nullOptionalFields ? null : undefined
    const rate: Record<string, unknown> = {
      rateCode: "SVC_COL",
      name: location.name,
      description:
        `Collect from ${location.name}, ${location.address.line1}, ${location.address.city} ${location.address.postcode}. ${readinessText}`.trim(),
      price: this.config.collection.priceForm === "number" ? amount : { amount, currency: this.config.currency },
      // A store that cannot offer collection has no readiness window.
      window: readiness && !problem ? { from: iso(readiness.readyAt), to: iso(readiness.closesAt) } : absent,
      co2Savings: absent,
    }
    if (this.config.collection.locationField) {
      rate.merchantLocationId = location.externalLocationId
    }
    if (problem) {
      rate.error = problem
    }
    return withoutUndefined(rate)
  }

  private remember(merchantOrderId: string, quote: StoredQuote): void {
    const list = this.quotesByOrder.get(merchantOrderId) ?? []
    list.push(quote)
    // Only recent quotes matter for booking.
    this.quotesByOrder.set(merchantOrderId, list.slice(-5))
  }

  // ------------------------------------------------------------ bookings

  book(kind: "DELIVERY" | "RETURN", body: unknown, now: number): { created: boolean; task: SimTask } {
    const request = this.validate(body, true)
    const key = `${kind}:${request.order.merchantOrderId}`
    const existing = this.deduplicates(kind) ? this.bookings.get(key) : undefined
    if (existing) {
      if (this.config.duplicateBooking === "conflict") {
        throw new SimulatorError(
          409,
          "DUPLICATE_ORDER",
          `merchantOrderId ${request.order.merchantOrderId} is already booked`,
          {
            taskId: existing.taskId,
          }
        )
      }
      return { created: false, task: existing }
    }
    if (kind === "DELIVERY") {
      this.checkQuoted(request, now)
    }
    const taskId = this.nextTaskId++
    const trackingId = `${this.config.trackingIdPrefix ?? "LM"}${randomBytes(5).toString("hex").toUpperCase()}`
    const createdAt = iso(now)
    const first = this.flowOf({ taskType: kind, rateCode: request.rateCode as string })[0] ?? "NOT_STARTED"
    const task: SimTask = {
      taskId,
      createdAt,
      taskType: kind,
      status: { taskId, value: first },
      deliveryType: request.deliveryType,
      trackingId,
      trackingUrl: `${this.config.publicUrl ?? this.baseUrl()}/track/${trackingId}`,
      rateCode: request.rateCode as string,
      merchantOrderId: request.order.merchantOrderId,
      merchantOrderName: request.order.merchantOrderName,
      collection: request.collection,
      delivery: request.delivery,
      customer: request.customer,
      ...(request.order.note !== undefined ? { note: request.order.note } : {}),
      statusHistory: [{ value: first, at: createdAt }],
    }
    this.tasks.push(task)
    this.bookings.set(key, task)
    return { created: true, task }
  }

  /** Deliveries always are (spec §4.2); for returns the spec does not say, so it is configured. */
  private deduplicates(kind: SimTask["taskType"]): boolean {
    return kind === "DELIVERY" || this.config.returnDeduplication
  }

  /** A booking needs a rate from a live quote for the same merchantOrderId. */
  private checkQuoted(request: ValidRequest, now: number): void {
    const rateCode = request.rateCode as string
    const wanted = (rate: StoredRate) =>
      rate.rateCode === rateCode &&
      rate.usable &&
      (rateCode !== "SVC_COL" || rate.externalLocationId === request.collection.merchantLocationId)
    const quotes = this.quotesByOrder.get(request.order.merchantOrderId) ?? []
    const matching = quotes.filter((q) => q.rates.some(wanted))
    if (!matching.length) {
      throw new SimulatorError(
        422,
        "RATE_NOT_QUOTED",
        rateCode === "SVC_COL"
          ? `No quote for ${request.order.merchantOrderId} offers collection from ${request.collection.merchantLocationId}`
          : `No quote for ${request.order.merchantOrderId} offers rate ${rateCode}`
      )
    }
    const newest = Math.max(...matching.map((q) => q.createdAt))
    if (now - newest > this.config.quoteTtlMs) {
      throw new SimulatorError(
        422,
        "QUOTE_EXPIRED",
        "The quote has expired: request a new quote immediately before booking"
      )
    }
  }

  /** The tasks GET /task/deliveries finds for an order: returns only when configured "listed". */
  lookup(merchantOrderId: string): SimTask[] {
    const returnsListed = this.config.returnLookup === "listed"
    return this.tasks.filter(
      (t) => t.merchantOrderId === merchantOrderId && (t.taskType === "DELIVERY" || returnsListed)
    )
  }

  findTask(taskId: number): SimTask | undefined {
    return this.tasks.find((t) => t.taskId === taskId)
  }

  // ------------------------------------------------------------ status

  setStatus(taskId: number, value: string, now: number): SimTask {
    const task = this.findTask(taskId)
    if (!task) {
      throw new SimulatorError(404, "TASK_NOT_FOUND", `No task ${taskId}`)
    }
    if (task.status.value === value) {
      return task
    }
    task.status = { taskId, value }
    task.statusHistory.push({ value, at: iso(now) })
    this.onStatusChange(task)
    return task
  }

  /** The flow a task follows: a collection's (SVC_COL), a return's, or a delivery's. */
  flowOf(task: Pick<SimTask, "taskType" | "rateCode">): string[] {
    if (task.taskType === "RETURN") {
      return this.config.returnStatusFlow
    }
    return task.rateCode === "SVC_COL" ? this.config.collectionStatusFlow : this.config.statusFlow
  }

  /**
   * Moves a task one step along its flow. A task off its flow (a failed
   * attempt) goes back to the step it was on: the courier goes out again.
   */
  advance(taskId: number, now: number): SimTask {
    const task = this.findTask(taskId)
    if (!task) {
      throw new SimulatorError(404, "TASK_NOT_FOUND", `No task ${taskId}`)
    }
    const flow = this.flowOf(task)
    const index = flow.indexOf(task.status.value)
    // A cancelled task goes nowhere: off the flow, it would otherwise restart at its first step.
    if (index === flow.length - 1 || task.status.value === this.config.cancelledStatus) {
      return task
    }
    if (index === -1) {
      const resumed = [...task.statusHistory].reverse().find((h) => flow.includes(h.value))?.value ?? flow[0]
      if (this.config.reattemptWindow && task.status.value === this.config.failedAttemptStatus) {
        task.window = { from: iso(now + 2 * 3_600_000), to: iso(now + 6 * 3_600_000) }
      }
      return this.setStatus(taskId, resumed, now)
    }
    return this.setStatus(taskId, flow[index + 1], now)
  }

  /** The courier could not deliver: a delivery on its way shows `failedAttemptStatus`, with its webhook. */
  failAttempt(taskId: number, now: number): SimTask {
    const task = this.findTask(taskId)
    if (!task) {
      throw new SimulatorError(404, "TASK_NOT_FOUND", `No task ${taskId}`)
    }
    const flow = this.flowOf(task)
    const index = flow.indexOf(task.status.value)
    if (flow !== this.config.statusFlow || index <= 0 || index === flow.length - 1) {
      throw new SimulatorError(
        409,
        "NOT_ON_ITS_WAY",
        `Task ${taskId} is ${task.status.value}: only a delivery on its way can fail an attempt`
      )
    }
    return this.setStatus(taskId, this.config.failedAttemptStatus, now)
  }

  /**
   * The merchant cancels a task in the service's own app (the API has no
   * cancel): a status change like any other, history and webhook included.
   */
  cancel(taskId: number, now: number): SimTask {
    return this.setStatus(taskId, this.config.cancelledStatus, now)
  }

  // ------------------------------------------------------------ locations

  publicLocation(location: SimLocation): Record<string, unknown> {
    const named = this.config.locationFields === "named"
    return withoutUndefined({
      fulfilmentLocationId: location.fulfilmentLocationId,
      externalLocationId: location.externalLocationId,
      name: named ? location.name : undefined,
      collectionEnabled: location.collectionEnabled,
      deliveryEnabled: named ? (location.deliveryEnabled ?? false) : undefined,
      address: location.address,
      operatingHours: this.config.nullOptionalFields ? null : this.publicHours(location.operatingHours),
      collectionCutoffMinutes: named
        ? (location.collectionCutoffMinutes ?? this.config.collection.defaultCutoffMinutes)
        : undefined,
    })
  }

  /** A location's hours in the configured shape. */
  private publicHours(hours: SimLocation["operatingHours"]): unknown {
    if (this.config.hoursShape === "days") {
      return hours
    }
    const names = {
      mon: "MONDAY",
      tue: "TUESDAY",
      wed: "WEDNESDAY",
      thu: "THURSDAY",
      fri: "FRIDAY",
      sat: "SATURDAY",
      sun: "SUNDAY",
    }
    return {
      timeZone: hours.timezone,
      days: Object.entries(names).map(([key, dayOfWeek]) => {
        const span = hours.days[key as keyof typeof names]
        return span ? { dayOfWeek, opensAt: span.open, closesAt: span.close } : { dayOfWeek, closed: true }
      }),
    }
  }

  /** The location list as the API shows it, the unreadable item included when configured. */
  publicLocations(): unknown[] {
    const list: unknown[] = this.locations.map((l) => this.publicLocation(l))
    if (this.config.junkLocation) {
      list.push({ fulfilmentLocationId: null, collectionEnabled: "yes" })
    }
    return list
  }

  patchLocation(id: string, body: unknown): SimLocation {
    const location = this.locations.find((l) => l.fulfilmentLocationId === id)
    if (!location) {
      throw new SimulatorError(404, "LOCATION_NOT_FOUND", `No fulfilment location ${id}`)
    }
    const enabled = (body as { collectionEnabled?: unknown } | null)?.collectionEnabled
    if (typeof enabled !== "boolean") {
      throw new SimulatorError(400, "VALIDATION_ERROR", "collectionEnabled must be a boolean", {
        fields: ["collectionEnabled"],
      })
    }
    location.collectionEnabled = enabled
    return location
  }

  // ------------------------------------------------------------ the merchant's location changes

  /** By fulfilmentLocationId or externalLocationId, the first match in list order. */
  findLocation(idOrExternalId: string): SimLocation {
    const found = this.locations.find(
      (l) => l.fulfilmentLocationId === idOrExternalId || l.externalLocationId === idOrExternalId
    )
    if (!found) {
      throw new SimulatorError(404, "LOCATION_NOT_FOUND", `simulator: no location ${idOrExternalId}`)
    }
    return found
  }

  addLocation(location: SimLocation): SimLocation {
    this.refuseTakenId(location.fulfilmentLocationId)
    this.locations.push(location)
    return location
  }

  removeLocation(idOrExternalId: string): SimLocation {
    const location = this.findLocation(idOrExternalId)
    this.locations.splice(this.locations.indexOf(location), 1)
    return location
  }

  /** Each given field replaces the stored one; the location object stays the same (callers may hold it). */
  updateLocation(idOrExternalId: string, patch: Partial<SimLocation>): SimLocation {
    const location = this.findLocation(idOrExternalId)
    if (patch.fulfilmentLocationId !== undefined && patch.fulfilmentLocationId !== location.fulfilmentLocationId) {
      this.refuseTakenId(patch.fulfilmentLocationId)
    }
    return Object.assign(location, patch)
  }

  /** Units per merchantProductId, merged into what the location has; other products keep theirs. */
  setStock(idOrExternalId: string, stock: Record<string, number>): SimLocation {
    const location = this.findLocation(idOrExternalId)
    // Merged in place: a test holding `location(id).stock` sees the change.
    location.stock = Object.assign(location.stock ?? {}, stock)
    return location
  }

  private refuseTakenId(fulfilmentLocationId: string): void {
    if (this.locations.some((l) => l.fulfilmentLocationId === fulfilmentLocationId)) {
      throw new SimulatorError(409, "LOCATION_EXISTS", `A location ${fulfilmentLocationId} already exists`, {
        fulfilmentLocationId,
      })
    }
  }

  // ------------------------------------------------------------ validation

  private validate(body: unknown, booking: boolean): ValidRequest {
    const missing: string[] = []
    const b = (body ?? {}) as Record<string, unknown>
    const str = (value: unknown, path: string) => {
      if (typeof value !== "string" || !value.trim()) {
        missing.push(path)
      }
    }
    const obj = (value: unknown): Record<string, unknown> =>
      value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {}
    const address = (value: unknown, path: string) => {
      const a = obj(value)
      for (const field of ["line1", "city", "postcode", "country"]) {
        str(a[field], `${path}.${field}`)
      }
    }
    str(b.deliveryType, "deliveryType")
    address(obj(b.collection).address, "collection.address")
    address(obj(b.delivery).address, "delivery.address")
    const customer = obj(b.customer)
    for (const field of ["firstName", "lastName", "email", "phoneNumber"]) {
      str(customer[field], `customer.${field}`)
    }
    const order = obj(b.order)
    str(order.merchantOrderId, "order.merchantOrderId")
    str(order.merchantOrderName, "order.merchantOrderName")
    if (booking) {
      str(b.rateCode, "rateCode")
      if (b.rateCode === "SVC_COL") {
        str(obj(b.collection).merchantLocationId, "collection.merchantLocationId")
      }
    }
    const invalid: string[] = []
    if (order.note !== undefined) {
      // Not a field of the spec's: a strict service refuses what it does not know.
      if (this.config.orderNote === "refuse") {
        throw new SimulatorError(400, "VALIDATION_ERROR", "Request is not valid: unknown field order.note", {
          unknown: ["order.note"],
        })
      }
      if (typeof order.note !== "string") {
        invalid.push("order.note (text)")
      }
    }
    if (typeof customer.phoneNumber === "string" && customer.phoneNumber && !E164.test(customer.phoneNumber)) {
      invalid.push("customer.phoneNumber (international format, e.g. +447700900123)")
    }
    const lineItems: QuoteLine[] = []
    if (order.lineItems !== undefined) {
      if (!Array.isArray(order.lineItems)) {
        invalid.push("order.lineItems (an array)")
      } else {
        order.lineItems.forEach((raw, i) => {
          const line = obj(raw)
          if (typeof line.merchantProductId !== "string" || !line.merchantProductId) {
            invalid.push(`order.lineItems.${i}.merchantProductId`)
          } else if (!Number.isInteger(line.quantity) || (line.quantity as number) < 1) {
            invalid.push(`order.lineItems.${i}.quantity (a positive integer)`)
          } else {
            lineItems.push({ merchantProductId: line.merchantProductId, quantity: line.quantity as number })
          }
        })
      }
    }
    if (missing.length || invalid.length) {
      const parts = [
        missing.length ? `missing ${missing.join(", ")}` : "",
        invalid.length ? `invalid ${invalid.join(", ")}` : "",
      ].filter(Boolean)
      throw new SimulatorError(400, "VALIDATION_ERROR", `Request is not valid: ${parts.join("; ")}`, {
        missing,
        invalid,
      })
    }
    const collection = obj(b.collection)
    return {
      deliveryType: b.deliveryType as string,
      collection: {
        address: collection.address as SimAddress,
        merchantLocationId: collection.merchantLocationId as string | undefined,
      },
      delivery: { address: obj(b.delivery).address as SimAddress },
      customer: customer as ValidRequest["customer"],
      order: {
        merchantOrderId: order.merchantOrderId as string,
        merchantOrderName: order.merchantOrderName as string,
        lineItems,
        ...(typeof order.note === "string" ? { note: order.note } : {}),
      },
      rateCode: b.rateCode as string | undefined,
    }
  }
}

function hasStock(location: SimLocation, lines: QuoteLine[]): boolean {
  const wanted = new Map<string, number>()
  for (const line of lines) {
    wanted.set(line.merchantProductId, (wanted.get(line.merchantProductId) ?? 0) + line.quantity)
  }
  for (const [product, quantity] of wanted) {
    if ((location.stock[product] ?? 0) < quantity) {
      return false
    }
  }
  return true
}

/** JSON leaves undefined out anyway; dropping it here keeps in-process callers seeing the same object. */
function withoutUndefined(value: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined))
}

function normalisePostcode(value: string): string {
  return value.replace(/\s+/g, "").toUpperCase()
}

function iso(instant: number): string {
  return new Date(instant).toISOString()
}
