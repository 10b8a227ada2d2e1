/** Runs the extension of a collection's hold for the admin's route (decision 65); a refusal keeps its type. */
import type { MedusaContainer } from "@medusajs/framework/types"
import { extendCollectionWorkflow } from "./index"
import { readUserName } from "../../lib/collection/medusa/read-user-name"
import { runRefusal } from "../run-refusal"

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
    throw runRefusal(errors[0], "The collection's hold was not extended")
  }
  return result
}
