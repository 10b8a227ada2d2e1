/** How the task's history names an admin user: their email, else their name; null when unknown. */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"

export async function readUserName(container: MedusaContainer, userId: string | null): Promise<string | null> {
  if (!userId) {
    return null
  }
  const { data } = await container.resolve(ContainerRegistrationKeys.QUERY).graph({
    entity: "user",
    fields: ["id", "email", "first_name", "last_name"],
    filters: { id: userId },
  })
  const user = data[0] as { email?: string | null; first_name?: string | null; last_name?: string | null } | undefined
  const name = [user?.first_name, user?.last_name].filter(Boolean).join(" ").trim()
  return user?.email?.trim() || name || null
}
