/**
 * A link the helpers hand a storefront to render: only an absolute http: or
 * https: URL. Anything else (`javascript:`, `data:`, a relative path, text
 * that is not a URL) is dropped, so data stored by any version, or written by
 * hand, can never become a script on the shopper's page.
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
