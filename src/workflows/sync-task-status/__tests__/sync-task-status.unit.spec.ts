/**
 * The sync workflow's orchestration against fakes: the lock is taken and
 * given back, a refusal from Medusa undoes the run and answers the waiting
 * webhook events as failed, and the grouped event is released only on success.
 */
import { asValue } from "@medusajs/framework/awilix"
import { ContainerRegistrationKeys, MedusaError, Modules, createMedusaContainer } from "@medusajs/framework/utils"
import { StatusTable } from "../../../lib/tracking/status-table"
import { trackedTask } from "../../../test-support/tracked-task"
import { LastmileClient } from "../../../lib/service-client"
import { syncTaskStatus } from "../run"
import { ROLLED_BACK_OUTCOME } from "../steps/list-waiting-webhook-events"

const findDeliveries = jest.fn()

const taskRow = { ...trackedTask(), last_checked_at: null, status_history: { entries: [] } }

function fakeContainer({ orderRead }: { orderRead: "ok" | "refused" | "broken" }) {
  const locks = new Map<string, string | undefined>()
  const taskUpdates: Record<string, unknown>[] = []
  const eventUpdates: Record<string, unknown>[] = []
  const bus = { emitted: [] as unknown[], released: 0, cleared: 0 }
  const container = createMedusaContainer()
  container.register({
    [ContainerRegistrationKeys.LOGGER]: asValue({ warn: jest.fn(), error: jest.fn(), info: jest.fn() }),
    [Modules.LOCKING]: asValue({
      acquire: async (keys: string | string[]) => {
        for (const key of [keys].flat()) {
          if (locks.has(key)) {
            throw new Error(`held: ${key}`)
          }
          locks.set(key, undefined)
        }
      },
      release: async (keys: string | string[]) => {
        ;[keys].flat().forEach((key) => locks.delete(key))
        return true
      },
    }),
    [Modules.EVENT_BUS]: asValue({
      emit: async (messages: unknown) => {
        bus.emitted.push(messages)
      },
      releaseGroupedEvents: async () => {
        bus.released++
      },
      clearGroupedEvents: async () => {
        bus.cleared++
      },
    }),
    [ContainerRegistrationKeys.QUERY]: asValue({
      graph: async ({ entity }: { entity: string }) => {
        if (entity === "fulfillment") {
          return {
            data: [
              {
                id: "ful_1",
                shipped_at: null,
                delivered_at: null,
                canceled_at: null,
                labels: [{ tracking_number: "LM1", tracking_url: "https://t/LM1", label_url: "" }],
                items: [{ line_item_id: "item_1", quantity: 1 }],
              },
            ],
          }
        }
        if (entity === "order" && orderRead === "refused") {
          throw new MedusaError(MedusaError.Types.NOT_ALLOWED, "Order with id order_1 has been canceled.")
        }
        if (entity === "order" && orderRead === "broken") {
          throw new Error("connection reset")
        }
        throw new Error(`unexpected query of ${entity}`)
      },
    }),
    lastmile: asValue({
      // The real client's lookups over a faked network call.
      connection: () => ({
        client: Object.assign(Object.create(LastmileClient.prototype), { findDeliveries }),
        options: {},
      }),
      // Messages off: this spec is about the sync; notify-task has its own.
      getPluginOptions: () => ({
        statusTable: new StatusTable(),
        markReturnsReceived: false,
        notifications: { enabled: false },
      }),
      retrieveLastmileTask: async () => taskRow,
      listLastmileWebhookEvents: async (filters: { status?: string; id?: string[] }) =>
        filters.status === "received"
          ? [{ id: "lmwe_1" }]
          : [{ id: "lmwe_1", status: "received", outcome: null, processed_at: null }],
      updateLastmileWebhookEvents: async (rows: Record<string, unknown>[]) => {
        eventUpdates.push(...rows)
      },
      updateLastmileTasks: async (row: Record<string, unknown>) => {
        taskUpdates.push(row)
      },
    }),
  })
  return { container, locks, taskUpdates, eventUpdates, bus }
}

describe("syncTaskStatusWorkflow", () => {
  beforeEach(() => findDeliveries.mockReset())

  it("records a status Medusa needs nothing for, answers the events and emits once", async () => {
    findDeliveries.mockResolvedValue([{ taskId: 1001, taskType: "DELIVERY", status: { value: "TELEPORTED" } }])
    const { container, locks, taskUpdates, eventUpdates, bus } = fakeContainer({ orderRead: "ok" })

    const outcome = await syncTaskStatus(container, "lmtask_1", { source: "webhook" })

    expect(outcome).toEqual({
      outcome: "NOT_STARTED → TELEPORTED (unknown status, recorded)",
      changed: true,
      status: "TELEPORTED",
      trackingState: "awaiting",
      ok: true,
    })
    expect(taskUpdates).toEqual([
      expect.objectContaining({ id: "lmtask_1", service_status: "TELEPORTED", unmapped_status: "TELEPORTED" }),
    ])
    expect(eventUpdates).toEqual([
      expect.objectContaining({ id: "lmwe_1", status: "processed", outcome: outcome.outcome }),
    ])
    expect(bus.emitted).toEqual([
      [
        expect.objectContaining({
          name: "lastmile.task.status_changed",
          data: expect.objectContaining({ status: "TELEPORTED" }),
        }),
      ],
    ])
    expect(bus.released).toBe(1)
    expect(locks.size).toBe(0)
  })

  it("undoes a run Medusa refuses, answers the events as failed, and runs once more before giving up", async () => {
    findDeliveries.mockResolvedValue([{ taskId: 1001, taskType: "DELIVERY", status: { value: "DELIVERED" } }])
    const { container, locks, taskUpdates, eventUpdates, bus } = fakeContainer({ orderRead: "refused" })

    const outcome = await syncTaskStatus(container, "lmtask_1", { source: "poll" })

    expect(outcome).toEqual({
      outcome: "not updated: Order with id order_1 has been canceled.",
      changed: false,
      ok: false,
    })
    expect(findDeliveries).toHaveBeenCalledTimes(2)
    expect(taskUpdates).toEqual([])
    expect(eventUpdates).toEqual([
      expect.objectContaining({ id: "lmwe_1", status: "failed", outcome: ROLLED_BACK_OUTCOME }),
      expect.objectContaining({ id: "lmwe_1", status: "failed", outcome: ROLLED_BACK_OUTCOME }),
    ])
    expect(bus.emitted).toEqual([])
    expect(bus.released).toBe(0)
    expect(locks.size).toBe(0)
  })

  it("does not run again after a failure that is not a refusal", async () => {
    findDeliveries.mockResolvedValue([{ taskId: 1001, taskType: "DELIVERY", status: { value: "IN_TRANSIT" } }])
    const { container, locks, taskUpdates } = fakeContainer({ orderRead: "broken" })

    const outcome = await syncTaskStatus(container, "lmtask_1", { source: "poll" })

    expect(outcome).toEqual({ outcome: "not updated: connection reset", changed: false, ok: false })
    expect(findDeliveries).toHaveBeenCalledTimes(1)
    expect(taskUpdates).toEqual([])
    expect(locks.size).toBe(0)
  })

  it("keeps a failed lookup as the outcome, changing nothing", async () => {
    findDeliveries.mockRejectedValue(new Error("the service did not answer"))
    const { container, locks, taskUpdates, eventUpdates } = fakeContainer({ orderRead: "ok" })

    const outcome = await syncTaskStatus(container, "lmtask_1", { source: "admin" })

    expect(outcome).toEqual({ outcome: "not updated: the service did not answer", changed: false, ok: false })
    expect(taskUpdates).toEqual([])
    expect(eventUpdates).toEqual([
      expect.objectContaining({ id: "lmwe_1", status: "failed", outcome: outcome.outcome }),
    ])
    expect(locks.size).toBe(0)
  })
})
