/** Time zone names: whether the runtime knows one, and the server's own (what `TZ` says, else the machine's). */

/** Whether `name` is a time zone the runtime knows (`Europe/London`, `UTC`); any other value is not. */
export function isTimeZone(name: unknown): name is string {
  if (typeof name !== "string" || name.trim() === "") {
    return false
  }
  try {
    new Intl.DateTimeFormat("en", { timeZone: name })
    return true
  } catch {
    return false
  }
}

/** The server's own time zone: the default when neither the options nor the store say; UTC when even that is unknown. */
export function serverTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC"
}
