import type { PooledClient, PostgresClient, PostgresPool, QueryResult } from './pgTypes.js'

/** How long one database operation may take unless told otherwise (R59). */
export const DEFAULT_TIMEOUT_MS = 10_000

/** An operation that did not answer in time: the `cause` of the `SessionStoreError` that reports it. */
export class DatabaseTimeoutError extends Error {
  override readonly name = 'DatabaseTimeoutError'
  readonly code = 'ETIMEDOUT'
  constructor(what: string, ms: number) {
    super(`${what} did not answer within ${ms} ms`)
  }
}

/**
 * `promise`, or a `DatabaseTimeoutError` after `ms`; `onTimeout` runs then (it closes the
 * connection, whose state is unknown from then on).
 */
export const within = <T>(promise: Promise<T>, ms: number, what: string, onTimeout: () => void): Promise<T> =>
  new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      onTimeout()
      reject(new DatabaseTimeoutError(what, ms))
    }, ms)
    promise.then(
      (value) => {
        clearTimeout(timer)
        resolve(value)
      },
      (error: unknown) => {
        clearTimeout(timer)
        reject(error)
      },
    )
  })

/** A connection from `pool` within `ms`; one that comes later is closed at once. */
export const connectWithin = (pool: PostgresPool, ms: number): Promise<PooledClient> => {
  let late = false
  const connecting = pool.connect()
  connecting.then(
    (client) => {
      if (!late) return
      client.on('error', ignore)
      client.release(true)
    },
    () => {},
  )
  return within(connecting, ms, 'connecting to the database', () => {
    late = true
  })
}

/** One query on `client` within `ms`; on a timeout `broken()` is told (the caller closes it). */
export const queryWithin = (
  client: PostgresClient,
  ms: number,
  text: string,
  values: unknown[] | undefined,
  broken: () => void,
): Promise<QueryResult> => within(client.query(text, values), ms, 'the database', broken)

/**
 * Runs `work` on a connection of `pool`, each query bounded by `ms`. A connection whose query
 * failed by timeout or by a broken connection is closed rather than returned to the pool.
 */
export const withConnection = async <T>(
  pool: PostgresPool,
  ms: number,
  work: (query: (text: string, values?: unknown[]) => Promise<QueryResult>) => Promise<T>,
): Promise<T> => {
  const client = await connectWithin(pool, ms)
  let destroy = false
  const onError = () => {
    destroy = true
  }
  client.on('error', onError)
  try {
    return await work((text, values) =>
      queryWithin(client, ms, text, values, () => {
        destroy = true
      }),
    )
  } finally {
    // A connection that goes back to the pool is the pool's to watch again. One that is closed
    // keeps a listener: the server may still report its end (an administrator's disconnect, a
    // dropped database) while it closes, and an 'error' nobody listens to crashes the process.
    if (!destroy) client.removeListener('error', onError)
    client.release(destroy)
  }
}

const ignore = (): void => {}
