/** A value once it has stopped changing for a moment: a search as the merchant pauses typing, a counter read then. */
import { useEffect, useState } from "react"

export function usePaused<T>(value: T, ms: number): T {
  const [paused, setPaused] = useState(value)
  useEffect(() => {
    const timer = setTimeout(() => setPaused(value), ms)
    return () => clearTimeout(timer)
  }, [value, ms])
  return paused
}
