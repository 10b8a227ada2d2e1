/** `next/headers` in the recipe's test page: the page's own cookies, which a server action reads and writes on a server. */
/** httpOnly and secure are a server's to set: the page cannot, and needs neither. */
type CookieOptions = {
  maxAge?: number
  httpOnly?: boolean
  secure?: boolean
  sameSite?: "strict" | "lax" | "none"
  path?: string
}

export async function cookies() {
  return {
    get(name: string): { name: string; value: string } | undefined {
      const found = document.cookie
        .split("; ")
        .map((pair) => pair.split("="))
        .find(([key]) => key === name)
      return found ? { name, value: decodeURIComponent(found.slice(1).join("=")) } : undefined
    },
    set(name: string, value: string, options: CookieOptions = {}): void {
      const parts = [`${name}=${encodeURIComponent(value)}`, `path=${options.path ?? "/"}`]
      if (options.maxAge !== undefined) {
        parts.push(`max-age=${options.maxAge}`)
      }
      if (options.sameSite) {
        parts.push(`samesite=${options.sameSite}`)
      }
      document.cookie = parts.join("; ")
    },
    delete(name: string): void {
      document.cookie = `${name}=; path=/; max-age=0`
    },
  }
}
