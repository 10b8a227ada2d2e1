/**
 * An in-process announcement whose listeners are referenced weakly (hold each as long as its owner): what an app
 * torn down held is let go (tests boot several apps in one process).
 */
export function weakSignal<A extends unknown[]>(
  /** A listener that throws: by default the announcer hears it; a signal that must never fail its caller says so. */
  onListenerError: (error: unknown) => void = (error) => {
    throw error
  }
) {
  const listeners = new Set<WeakRef<(...args: A) => void>>()
  return {
    on: (listener: (...args: A) => void): void => void listeners.add(new WeakRef(listener)),
    /** Whether anyone may be listening: an announcer skips building what nobody hears. */
    heard: (): boolean => listeners.size > 0,
    emit(...args: A): void {
      for (const ref of listeners) {
        const listener = ref.deref()
        if (!listener) {
          listeners.delete(ref)
          continue
        }
        try {
          listener(...args)
        } catch (error) {
          onListenerError(error)
        }
      }
    },
  }
}
