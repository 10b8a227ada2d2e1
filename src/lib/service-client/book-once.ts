/**
 * Bookings sent once. The service de-duplicates deliveries on
 * `order.merchantOrderId`, but a lost answer leaves the outcome unknown: the
 * next round looks the booking up and adopts it, and a delivery is posted
 * again only when the lookup shows none. Returns are not said to be
 * de-duplicated, so one is never posted twice.
 */
import { LastmileBookingOutcomeUnknownError, LastmileRejectedError, isOutcomeUnknown } from "./errors"
import { type RetryPolicy, backoffMs, shouldRetryUnsafeWrite } from "./retry-policy"
import { type BookingRequest, type ServiceTask, parseTask } from "./schemas"
import { type LastmileLogger, type ServiceTransport, describeError, parseAnswer } from "./transport"
import type { BookingResult, CallOptions } from "./client-options"

export interface Booker {
  transport: ServiceTransport
  retry: RetryPolicy
  bookingMs: number
  logger: LastmileLogger
  sleep: (ms: number) => Promise<void>
  random: () => number
  /** Every task the service holds for a reference. */
  lookup(merchantOrderId: string, options: CallOptions): Promise<ServiceTask[]>
}

export async function bookOnce(
  via: Booker,
  operation: "bookDelivery" | "bookReturn",
  path: string,
  request: BookingRequest,
  options: CallOptions
): Promise<BookingResult> {
  const { transport, retry, logger, sleep, random } = via
  const merchantOrderId = request.order?.merchantOrderId
  const kind = operation === "bookDelivery" ? "DELIVERY" : "RETURN"
  let posts = 0
  let unknown: unknown = undefined
  // Each round either settles an unknown outcome by a lookup, or posts; a round past the last attempt only settles.
  for (let n = 1; ; n++) {
    if (unknown !== undefined) {
      const found = await via.lookup(merchantOrderId, options).then(
        (tasks) => pickTask(tasks, kind),
        (error: unknown) => {
          logger.warn(`lastmile: lookup of ${merchantOrderId} after an unknown outcome failed: ${describeError(error)}`)
          return "failed" as const
        }
      )
      if (found && found !== "failed") {
        logger.debug(`lastmile: adopted task ${found.taskId} for ${merchantOrderId} after ${describeError(unknown)}`)
        return { task: found, adopted: true, attempts: posts }
      }
      if (n > retry.maxAttempts) {
        const message = `Booking ${merchantOrderId}: outcome unknown after ${posts} attempt(s) (${describeError(unknown)})`
        throw new LastmileBookingOutcomeUnknownError(message, merchantOrderId, posts, unknown)
      }
      // Without proof that nothing was booked, never post again.
      if (found === "failed" || kind === "RETURN") {
        await sleep(backoffMs(n, retry, unknown, random))
        continue
      }
      unknown = undefined
    }
    try {
      posts++
      const { json } = await transport.send({
        ...{ operation, method: "POST", path, body: request, timeoutMs: via.bookingMs },
        ...{ signal: options.signal, read: false },
      })
      return { task: parseAnswer(`POST ${path}`, json, parseTask), adopted: false, attempts: posts }
    } catch (error) {
      // 409 is a plausible answer to a repeated merchantOrderId: the task exists.
      if ((error instanceof LastmileRejectedError && error.status === 409) || isOutcomeUnknown(error)) {
        unknown = error
        continue
      }
      // Refused before processing (connection refused, 429): safe to repeat, until the last attempt.
      if (!shouldRetryUnsafeWrite(error, n, retry)) {
        throw error
      }
      await sleep(backoffMs(n, retry, error, random))
    }
  }
}

/**
 * The task of the wanted kind when the lookup lists several; the newest wins.
 * The taskType of a return is not shown, so anything but DELIVERY counts as one.
 */
export function pickTask(tasks: ServiceTask[], kind: "DELIVERY" | "RETURN"): ServiceTask | null {
  const matching = tasks.filter((t) => {
    const type = t.taskType?.toUpperCase()
    return !type || (kind === "DELIVERY" ? type === "DELIVERY" : type !== "DELIVERY")
  })
  if (!matching.length) {
    return null
  }
  return matching.reduce((newest, t) => ((t.createdAt ?? "") > (newest.createdAt ?? "") ? t : newest))
}
