/**
 * The insights charts draw one a frame, each after a paint: Recharts draws a chart in one long task, so five at once
 * would hold up a click for all of them.
 */
import { useEffect, useState } from "react"
import { flushSync } from "react-dom"

/** Charts waiting for their turn, first come first drawn. */
const waiting: (() => void)[] = []
let scheduled = false

/** After the next paint (at once in a hidden tab, which paints no frame). */
function afterPaint(then: () => void): void {
  if (typeof document !== "undefined" && document.visibilityState === "visible") {
    requestAnimationFrame(() => setTimeout(then, 0))
  } else {
    setTimeout(then, 0)
  }
}

function nextTurn(): void {
  waiting.shift()?.()
  if (waiting.length) {
    afterPaint(nextTurn)
  } else {
    scheduled = false
  }
}

/**
 * The value a chart draws: the one it was given, once its turn has come (`drawn` false until the first turn, the
 * previous value shown until a new one's). The turn's update is rendered at once, effects and Recharts' store
 * included, so the chart is drawn in its own task.
 */
export function useInTurn<T>(value: T): { shown: T; drawn: boolean } {
  const [state, setState] = useState({ shown: value, drawn: false })
  useEffect(() => {
    if (state.drawn && Object.is(state.shown, value)) {
      return
    }
    const turn = () => flushSync(() => setState({ shown: value, drawn: true }))
    waiting.push(turn)
    if (!scheduled) {
      scheduled = true
      afterPaint(nextTurn)
    }
    return () => {
      const at = waiting.indexOf(turn)
      if (at >= 0) {
        waiting.splice(at, 1)
      }
    }
  }, [value, state])
  return state
}
