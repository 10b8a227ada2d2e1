/** Removes secrets from text before it reaches an error or a log line, wherever they occur (an echoed key, a URL). */
export function redactSecrets(text: string, secrets: readonly (string | undefined)[]): string {
  let out = text
  for (const secret of secrets) {
    // Very short values would redact ordinary words; real keys are never that short.
    if (!secret || secret.length < 4) {
      continue
    }
    out = out.split(secret).join("[REDACTED]")
  }
  return out
}

/** Keeps an upstream body readable in an error without carrying megabytes around. */
export function truncate(text: string, max = 2000): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length - max} more characters)`
}
