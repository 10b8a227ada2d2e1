import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules, generateJwtToken } from "@medusajs/framework/utils"

/** Creates an admin user and returns headers that authenticate as it (as Medusa's own tests do). */
export async function createAdminHeaders(
  container: MedusaContainer,
  email = "admin@lastmile.test"
): Promise<{ headers: Record<string, string> }> {
  const userModule = container.resolve(Modules.USER)
  const authModule = container.resolve(Modules.AUTH)
  const user = await userModule.createUsers({ email })
  const authIdentity = await authModule.createAuthIdentities({
    provider_identities: [{ provider: "emailpass", entity_id: email }],
    app_metadata: { user_id: user.id },
  })
  const config = container.resolve(ContainerRegistrationKeys.CONFIG_MODULE)
  const { jwtSecret, jwtOptions } = config.projectConfig.http
  const token = generateJwtToken(
    { actor_id: user.id, actor_type: "user", auth_identity_id: authIdentity.id, app_metadata: { user_id: user.id } },
    { secret: jwtSecret, expiresIn: "1d", jwtOptions }
  )
  return { headers: { authorization: `Bearer ${token}` } }
}
