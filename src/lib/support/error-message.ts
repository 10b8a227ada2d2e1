/** The message of an error of any shape, for logs and the task's last error. */
// Errors come back from the workflow engine as plain objects, not Error instances.
export function errorMessage(error: unknown): string {
  if (error && typeof error === "object" && typeof (error as { message?: unknown }).message === "string") {
    return (error as { message: string }).message
  }
  try {
    return typeof error === "string" ? error : JSON.stringify(error)
  } catch {
    return String(error)
  }
}
