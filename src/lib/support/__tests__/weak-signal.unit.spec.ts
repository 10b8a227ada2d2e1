import { weakSignal } from "../weak-signal"

describe("weakSignal", () => {
  it("calls each listener with what is announced, and says whether anyone listens", () => {
    const signal = weakSignal<[n: number]>()
    expect(signal.heard()).toBe(false)
    const heard: number[] = []
    const listener = (n: number) => void heard.push(n)
    signal.on(listener)
    signal.emit(1)
    signal.emit(2)
    expect(signal.heard()).toBe(true)
    expect(heard).toEqual([1, 2])
  })

  it("lets a listener's failure reach the announcer, unless the signal says otherwise", () => {
    const failing = () => {
      throw new Error("listener broke")
    }
    const loud = weakSignal<[]>()
    loud.on(failing)
    expect(() => loud.emit()).toThrow("listener broke")

    const errors: unknown[] = []
    const quiet = weakSignal<[]>((error) => void errors.push(error))
    let after = 0
    const next = () => void after++
    quiet.on(failing)
    quiet.on(next)
    expect(() => quiet.emit()).not.toThrow()
    // The listener after the failing one still hears it.
    expect(after).toBe(1)
    expect(errors).toHaveLength(1)
  })
})
