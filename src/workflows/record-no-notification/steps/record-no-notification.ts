/**
 * Writes the merchant's `no_notification` on a return, an exchange or a claim, which Medusa 2.21's request routes
 * drop (decision 60); undone to what it was when a later step fails.
 */
import type { IOrderModuleService } from "@medusajs/framework/types"
import { Modules } from "@medusajs/framework/utils"
import { StepResponse, createStep } from "@medusajs/framework/workflows-sdk"

export type SwitchedRecord = { kind: "return" | "exchange" | "claim"; id: string; no_notification: boolean }

async function write(orders: IOrderModuleService, { kind, id, no_notification }: SwitchedRecord) {
  // The selector form: 2.21's `updateReturns(id, data)` fails inside the order module.
  if (kind === "return") {
    await orders.updateReturns([{ selector: { id }, data: { no_notification } }])
  } else if (kind === "exchange") {
    await orders.updateOrderExchanges([{ selector: { id }, data: { no_notification } }])
  } else {
    await orders.updateOrderClaims([{ selector: { id }, data: { no_notification } }])
  }
}

async function current(orders: IOrderModuleService, { kind, id }: SwitchedRecord): Promise<boolean | null> {
  const found =
    kind === "return"
      ? await orders.listReturns({ id }, { select: ["id", "no_notification"] })
      : kind === "exchange"
        ? await orders.listOrderExchanges({ id }, { select: ["id", "no_notification"] })
        : await orders.listOrderClaims({ id }, { select: ["id", "no_notification"] })
  return found[0] ? (found[0].no_notification ?? false) : null
}

export const recordNoNotificationStepId = "lastmile-record-no-notification"

export const recordNoNotificationStep = createStep(
  recordNoNotificationStepId,
  async (input: SwitchedRecord, { container }) => {
    const orders = container.resolve<IOrderModuleService>(Modules.ORDER)
    const before = await current(orders, input)
    if (before === null || before === input.no_notification) {
      // Nothing to write: not found (the route answers 404 itself), or already so.
      return new StepResponse(false, null)
    }
    await write(orders, input)
    return new StepResponse(true, { ...input, no_notification: before })
  },
  async (before, { container }) => {
    if (before) {
      await write(container.resolve<IOrderModuleService>(Modules.ORDER), before)
    }
  }
)
