import { MAX_RETURNS_KEPT, withStatusEntry } from "../task-history"

describe("a task's history of statuses", () => {
  const at = (minute: number) => new Date(Date.UTC(2026, 11, 1, 9, minute))

  it("records a status once: a status that comes back is counted on its entry, with when", () => {
    let history = { entries: [{ value: "needs_attention", at: at(0).toISOString() }] as unknown[] }
    for (const [i, value] of ["OUT_FOR_DELIVERY", "FAILED_ATTEMPT", "OUT_FOR_DELIVERY", "FAILED_ATTEMPT"].entries()) {
      history = withStatusEntry(history, { value, at: at(i + 1), source: "webhook", phase: "shipped" })
    }
    expect(history.entries).toEqual([
      { value: "needs_attention", at: at(0).toISOString() },
      {
        value: "OUT_FOR_DELIVERY",
        at: at(1).toISOString(),
        source: "webhook",
        phase: "shipped",
        times: 2,
        last_at: at(3).toISOString(),
        again_at: [at(3).toISOString()],
      },
      expect.objectContaining({ value: "FAILED_ATTEMPT", times: 2, again_at: [at(4).toISOString()] }),
    ])
  })

  it("keeps a window the service gave, and when a status came back only the first 20 times", () => {
    let history = withStatusEntry(null, { value: "A", at: at(0), source: "poll" })
    for (let i = 1; i <= 40; i++) {
      history = withStatusEntry(history, { value: i % 2 ? "B" : "A", at: at(i), source: "poll" })
    }
    const a = history.entries[0] as { times: number; again_at: string[]; last_at: string }
    expect(a.times).toBe(21)
    expect(a.again_at).toHaveLength(MAX_RETURNS_KEPT)
    expect(a.last_at).toBe(at(40).toISOString())
    const window = { from: "2026-12-02T08:00:00Z", to: "2026-12-02T12:00:00Z" }
    const given = withStatusEntry(history, { value: "B", at: at(41), source: "poll", window })
    expect(given.entries[1]).toMatchObject({ value: "B", window })
  })
})
