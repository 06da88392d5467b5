/**
 * The parts of the `pg` driver this entry uses, described structurally: a `pg.Pool` fits, and so
 * does any pool with the same shape. steerable/postgres never imports `pg` itself; the app's
 * pool (and its copy of `pg`, an optional peer dependency) is the one used.
 */

/** What a query returns. */
export type QueryResult = {
  readonly rows: readonly Record<string, unknown>[]
  readonly rowCount: number | null
}

/** A connection: `pg.Client` or `pg.PoolClient`. */
export type PostgresClient = {
  query(text: string, values?: unknown[]): Promise<QueryResult>
  on(event: 'error', listener: (error: Error) => void): unknown
  on(event: 'end', listener: () => void): unknown
  on(
    event: 'notification',
    listener: (message: { channel: string; payload?: string | undefined }) => void,
  ): unknown
  removeListener(event: 'error', listener: (error: Error) => void): unknown
}

/** A connection checked out of a pool; `release(true)` (or an error) closes it. */
export type PooledClient = PostgresClient & { release(destroy?: boolean | Error): void }

/** A pool of connections: a `pg.Pool`. */
export type PostgresPool = { connect(): Promise<PooledClient> }
