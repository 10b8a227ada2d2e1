export interface EmbeddedDatabase {
  host: string
  port: number
  user: string
  password: string
  /** Stops the server, keeping its data (only with a `dataDir`). */
  pause(): Promise<void>
  /** Starts it again on the same port. */
  resume(): Promise<void>
  stop(): Promise<void>
}

export interface EmbeddedDatabaseOptions {
  /** Keep the data between runs in this folder; a fresh temporary one when unset. */
  dataDir?: string
  port?: number
  log?: (line: string) => void
  /** A test run's database, lost with the run: nothing flushed to disk (fsync off). */
  throwaway?: boolean
}

export function freePort(): Promise<number>
export function startEmbeddedDatabase(options?: EmbeddedDatabaseOptions): Promise<EmbeddedDatabase>
