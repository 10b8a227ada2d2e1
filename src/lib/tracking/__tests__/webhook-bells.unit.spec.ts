/**
 * The webhook's bells: one re-read per task per window however many posts ring, and during an event-bus outage a
 * warning once a minute, not once per task.
 */
import { WebhookBells } from "../webhook-bells"

const settle = async () => {
  await new Promise((resolve) => setImmediate(resolve))
  await new Promise((resolve) => setImmediate(resolve))
}

describe("the webhook's bells", () => {
  it("rings a task at once, then once more at the end of a burst's window", async () => {
    jest.useFakeTimers()
    try {
      const emit = jest.fn(async (_data: { id: string; lastmile_task_id: string }) => undefined)
      const bells = new WebhookBells({ emit, logger: { warn: jest.fn() }, windowMs: 1000 })
      for (let n = 1; n <= 10; n++) {
        bells.ring({ id: `lmwe_${n}`, lastmile_task_id: "lmtask_1" })
      }
      bells.ring({ id: "lmwe_other", lastmile_task_id: "lmtask_2" })
      await jest.advanceTimersByTimeAsync(0)
      expect(emit.mock.calls.map(([data]) => data)).toEqual([
        { id: "lmwe_1", lastmile_task_id: "lmtask_1" },
        { id: "lmwe_other", lastmile_task_id: "lmtask_2" },
      ])
      await jest.advanceTimersByTimeAsync(999)
      expect(emit).toHaveBeenCalledTimes(2)
      // The window closes, and its last post rings after the current turn.
      await jest.advanceTimersByTimeAsync(5)
      expect(emit).toHaveBeenCalledTimes(3)
      expect(emit).toHaveBeenLastCalledWith({ id: "lmwe_10", lastmile_task_id: "lmtask_1" })
      bells.close()
    } finally {
      jest.useRealTimers()
    }
  })

  it("warns once, not once per task, while the event bus is down", async () => {
    const warn = jest.fn()
    const emit = jest.fn(async () => {
      throw Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:6379"), { name: "RedisConnectionError" })
    })
    const bells = new WebhookBells({ emit, logger: { warn } })
    for (const task of ["T1", "T2", "T3", "T4", "T5"]) {
      bells.ring({ id: `lmwe_${task}`, lastmile_task_id: task })
    }
    await settle()
    expect(emit).toHaveBeenCalledTimes(5)
    expect(warn).toHaveBeenCalledTimes(1)
    expect(String(warn.mock.calls[0][0])).toMatch(/webhook bell .* not rung \(RedisConnectionError\).*polling job/)
    bells.close()
  })

  it("rings nothing once closed (the app is shutting down)", async () => {
    const emit = jest.fn(async () => undefined)
    const bells = new WebhookBells({ emit, logger: { warn: jest.fn() } })
    bells.close()
    bells.ring({ id: "lmwe_1", lastmile_task_id: "lmtask_1" })
    await settle()
    expect(emit).not.toHaveBeenCalled()
  })
})
