/**
 * A notification provider on `email` for tests (LASTMILE_TEST_EMAIL_PROVIDER): keeps what it is handed, `content`
 * included, and throws while a test says it is down; its state lives on globalThis, shared with the app it boots.
 */
import { join } from "node:path"
import type { ProviderSendNotificationDTO, ProviderSendNotificationResultsDTO } from "@medusajs/framework/types"
import { AbstractNotificationProviderService, ModuleProvider, Modules } from "@medusajs/framework/utils"

/** Absolute: Medusa reads a `./` path outside src/ as one inside it. */
export const TEST_EMAIL_PROVIDER = join(__dirname, "test-email-provider")

interface Mailbox {
  down: boolean
  sent: ProviderSendNotificationDTO[]
  failed: number
}

const KEY = Symbol.for("lastmile.test-email-provider")

export function testMailbox(): Mailbox {
  const holder = globalThis as unknown as Record<symbol, Mailbox | undefined>
  holder[KEY] ??= { down: false, sent: [], failed: 0 }
  return holder[KEY]
}

class TestEmailProviderService extends AbstractNotificationProviderService {
  static identifier = "test-email"

  async send(notification: ProviderSendNotificationDTO): Promise<ProviderSendNotificationResultsDTO> {
    const mailbox = testMailbox()
    if (mailbox.down) {
      mailbox.failed++
      throw new Error("the test email provider is down")
    }
    mailbox.sent.push(notification)
    return { id: `test-email-${mailbox.sent.length}` }
  }
}

export default ModuleProvider(Modules.NOTIFICATION, { services: [TestEmailProviderService] })
