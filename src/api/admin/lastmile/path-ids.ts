/**
 * Paths that name nothing, answered 400 rather than 500 (decision 33): ids with a NUL or a control character, and
 * Express's URIError for a path that is not valid percent-encoding.
 */
import type { MedusaNextFunction, MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { errorHandler } from "@medusajs/framework/http"
import { MedusaError } from "@medusajs/framework/utils"

const CONTROL = /[\u0000-\u001F\u007F]/

/** Why a path cannot name anything, or null. */
export function unreadablePathProblem(path: string): string | null {
  for (const segment of path.split("?")[0].split("/")) {
    let decoded: string
    try {
      decoded = decodeURIComponent(segment)
    } catch {
      return UNDECODABLE
    }
    if (CONTROL.test(decoded)) {
      return "An id in the path holds a control character"
    }
  }
  return null
}

const UNDECODABLE = "The path is not valid percent-encoded UTF-8"

export function refuseUnreadableIds(req: { url?: string }, _res: unknown, next: MedusaNextFunction): void {
  const problem = unreadablePathProblem(req.url ?? "")
  next(problem ? new MedusaError(MedusaError.Types.INVALID_DATA, problem) : undefined)
}

const medusaErrorHandler = errorHandler()

/** Express's failure to decode a path parameter is the client's: 400. Anything else is Medusa's to answer. */
export function undecodablePathErrorHandler(
  error: unknown,
  req: MedusaRequest,
  res: MedusaResponse,
  next: MedusaNextFunction
): void {
  if (error instanceof URIError && (error as URIError & { status?: unknown }).status === 400) {
    res.status(400).json({ type: MedusaError.Types.INVALID_DATA, message: UNDECODABLE })
    return
  }
  medusaErrorHandler(error as Error, req, res, next)
}
