/** Runs the extension of a collection's hold for the admin's route (decision 65); a refusal keeps its type. */
import type { MedusaContainer } from "@medusajs/framework/types"
import { MedusaError } from "@medusajs/framework/utils"
import { extendCollectionWorkflow } from "./index"
import { readUserName } from "../../lib/collection/medusa/read-user-name"
import { errorMessage } from "../../lib/support/error-message"

export async function extendCollection(
  container: MedusaContainer,
  taskRowId: string,
  days: number,
  actorId: string | null
): Promise<{ collect_by: string }> {
  const actor = { id: actorId, name: await readUserName(container, actorId) }
  const { result, errors } = await extendCollectionWorkflow(container).run({
    input: { task_row_id: taskRowId, days, actor },
    throwOnError: false,
  })
  if (errors.length) {
    const error = errors[0].error
    const refused = MedusaError.isMedusaError(error) && (error as MedusaError).type === MedusaError.Types.NOT_ALLOWED
    throw new MedusaError(
      refused ? MedusaError.Types.NOT_ALLOWED : MedusaError.Types.UNEXPECTED_STATE,
      refused ? errorMessage(error) : `The collection's hold was not extended: ${errorMessage(error)}`
    )
  }
  return result
}
