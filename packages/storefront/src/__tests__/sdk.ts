/** A stand-in for js-sdk's `Medusa` that records each request and answers from `answer`. */
import type { LastmileFetchInit, LastmileSdk } from "../index.js"

export function fakeSdk(answer: (path: string, init?: LastmileFetchInit) => unknown) {
  const calls: { path: string; init?: LastmileFetchInit }[] = []
  const sdk: LastmileSdk = {
    client: {
      async fetch<T>(path: string, init?: LastmileFetchInit): Promise<T> {
        calls.push({ path, init })
        return answer(path, init) as T
      },
    },
  }
  return { sdk, calls }
}
