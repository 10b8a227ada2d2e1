// `next/headers`' cookies(), as a server action uses it (Next.js 15: a promise of the request's cookies).
export declare function cookies(): Promise<{
  get(name: string): { name: string; value: string } | undefined
  set(
    name: string,
    value: string,
    options?: {
      maxAge?: number
      httpOnly?: boolean
      sameSite?: "strict" | "lax" | "none"
      secure?: boolean
      path?: string
    }
  ): void
  delete(name: string): void
}>
