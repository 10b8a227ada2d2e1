/**
 * One keep-alive undici Agent per service origin in a process, shared by the provider's and the module's clients and
 * closed when its last borrower gives it back.
 */
import { Agent, type Dispatcher } from "undici"

const pools = new Map<string, { agent: Agent; borrowers: number }>()

export interface BorrowedDispatcher {
  dispatcher: Dispatcher
  /** Gives the pool back; the last borrower closes it. Idempotent. */
  release(): Promise<void>
}

export function borrowDispatcher(origin: string, { connectMs }: { connectMs: number }): BorrowedDispatcher {
  const held = pools.get(origin) ?? {
    agent: new Agent({
      keepAliveTimeout: 10_000,
      keepAliveMaxTimeout: 60_000,
      connections: 64,
      connect: { timeout: connectMs },
    }),
    borrowers: 0,
  }
  pools.set(origin, held)
  held.borrowers++
  let released = false
  return {
    dispatcher: held.agent,
    async release() {
      if (released) {
        return
      }
      released = true
      held.borrowers--
      if (held.borrowers === 0 && pools.get(origin) === held) {
        pools.delete(origin)
        await held.agent.close()
      }
    },
  }
}
