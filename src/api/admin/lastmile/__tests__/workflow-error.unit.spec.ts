import { MedusaError } from "@medusajs/framework/utils"
import { acquireLockStepId } from "@medusajs/medusa/core-flows"
import { serializeError } from "@medusajs/framework/utils"
import { LastmileAuthenticationError, LastmileServerError, LastmileTimeoutError } from "../../../../lib/service-client"
import { serviceFailureAnswer, workflowError } from "../workflow-error"

describe("workflowError", () => {
  it("answers a setup or mapping that waited in vain for the lock with a 400 to try again", () => {
    const answer = workflowError({ action: acquireLockStepId, error: new Error("Timed-out acquiring lock") }, "Stopped")
    expect(answer).toMatchObject({ type: MedusaError.Types.NOT_ALLOWED })
    expect(answer.message).toBe("Another lastmile setup or location change is running. Try again in a moment.")
  })

  it("keeps a refusal's type and words across the workflow engine", () => {
    const refusal = { type: MedusaError.Types.NOT_FOUND, message: "Stock location with id: sloc_1 was not found" }
    expect(workflowError({ action: "plan", error: refusal }, "Stopped")).toMatchObject({
      type: MedusaError.Types.NOT_FOUND,
      message: "Stock location with id: sloc_1 was not found",
    })
  })

  it("says what stopped for anything unexpected", () => {
    expect(
      workflowError({ action: "create", error: new Error("connection reset") }, "Linking location 7 stopped")
    ).toMatchObject({
      type: MedusaError.Types.UNEXPECTED_STATE,
      message: "Linking location 7 stopped: connection reset",
    })
  })

  it("answers the service's failure with a 502 naming it, by its code, also as the workflow engine hands it back", () => {
    const refused = new LastmileAuthenticationError("PATCH: the service refused the API key (401)", { status: 401 })
    for (const error of [refused, serializeError(refused)]) {
      expect(serviceFailureAnswer(error, "Creating a stock location for location 3 stopped")).toEqual({
        status: 502,
        body: {
          type: "lastmile_service_error",
          code: "lastmile_service_authentication",
          message:
            "Creating a stock location for location 3 stopped: the service refused the API key (401): check the provider's api_key",
        },
      })
    }
    expect(
      serviceFailureAnswer(serializeError(new LastmileServerError("503", { status: 503 })), "Stopped")
    ).toMatchObject({
      status: 502,
      body: { message: "Stopped: the service failed (503): try again later" },
    })
    expect(serviceFailureAnswer(new LastmileTimeoutError("slow", 5000), "Stopped")?.status).toBe(504)
    // Not the service's: Medusa's errors, and one whose message merely reads like it.
    expect(serviceFailureAnswer({ type: "not_found", message: "x" }, "Stopped")).toBeNull()
    expect(serviceFailureAnswer(new Error("the service refused the API key"), "Stopped")).toBeNull()
  })
})
