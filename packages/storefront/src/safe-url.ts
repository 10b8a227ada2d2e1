/**
 * A link the helpers hand a storefront: only an absolute http(s) URL, so stored data of any version can never become a
 * script on the shopper's page.
 */
export function safeHttpUrl(value: unknown): string | null {
  if (typeof value !== "string") {
    return null
  }
  let url: URL
  try {
    // No base: a relative or scheme-less value is not a link to the service's page.
    url = new URL(value.trim())
  } catch {
    return null
  }
  return url.protocol === "https:" || url.protocol === "http:" ? url.href : null
}
