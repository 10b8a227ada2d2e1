import { MedusaError } from "@medusajs/framework/utils"
import { acquireLockStepId } from "@medusajs/medusa/core-flows"
import { workflowError } from "../workflow-error"

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
})
