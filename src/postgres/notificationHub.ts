import type { PooledClient, PostgresPool } from './pgTypes.js'
import { connectWithin, queryWithin } from './timeouts.js'

/**
 * One LISTEN connection shared by everything a client follows: `listen(channel, key, wake)`
 * calls `wake` for each notification on `channel` whose payload is `key` (a session id). The
 * connection is opened with the first listener and closed by `close()`. Notifications only
 * hurry things up: followers also poll, so a lost connection costs latency, not events. A lost
 * connection is opened again (after `ms`, and again after each failure) while anyone listens,
 * and every listener reads once the LISTEN is back: what committed meanwhile is not left to the
 * poll.
 */
export type NotificationHub = {
  listen(channel: string, key: string, wake: () => void): () => void
  close(): Promise<void>
}

const SEPARATOR = '\u0000'

export const notificationHub = (pool: PostgresPool, ms: number): NotificationHub => {
  const listeners = new Map<string, Set<() => void>>()
  let connection: Promise<PooledClient | undefined> | undefined
  const channels = new Set<string>()
  let closed = false
  let retry: ReturnType<typeof setTimeout> | undefined

  const retryLater = () => {
    if (closed || retry || listeners.size === 0) return
    retry = setTimeout(() => {
      retry = undefined
      const wanted = new Set([...listeners.keys()].map((at) => at.slice(0, at.indexOf(SEPARATOR))))
      for (const channel of wanted) void subscribe(channel)
    }, ms)
    retry.unref()
  }
  const open = (): Promise<PooledClient | undefined> => {
    if (connection) return connection
    const opening: Promise<PooledClient | undefined> = connectWithin(pool, ms).then(
      (client) => {
        let dropped = false
        const drop = () => {
          if (dropped) return
          dropped = true
          if (connection === opening) connection = undefined
          channels.clear()
          try {
            client.release(true)
          } catch {
            // Released already.
          }
          retryLater()
        }
        client.on('error', drop)
        client.on('end', drop)
        client.on('notification', ({ channel, payload }) => {
          for (const wake of listeners.get(`${channel}${SEPARATOR}${payload ?? ''}`) ?? []) wake()
        })
        return client
      },
      () => {
        if (connection === opening) connection = undefined
        retryLater()
        return undefined
      },
    )
    connection = opening
    return opening
  }
  const subscribe = async (channel: string) => {
    const client = await open()
    if (!client || channels.has(channel) || closed) return
    channels.add(channel)
    try {
      // The channel is a constant of ours, never caller input.
      await queryWithin(client, ms, `LISTEN ${channel}`, undefined, () => client.release(true))
    } catch {
      channels.delete(channel)
      retryLater()
      return
    }
    // What committed before the LISTEN took effect sent its notification to nobody: read now.
    for (const [at, wakes] of listeners)
      if (at.startsWith(`${channel}${SEPARATOR}`)) for (const wake of wakes) wake()
  }

  return {
    listen: (channel, key, wake) => {
      const at = `${channel}${SEPARATOR}${key}`
      const set = listeners.get(at) ?? new Set()
      listeners.set(at, set)
      set.add(wake)
      void subscribe(channel)
      return () => {
        set.delete(wake)
        if (set.size === 0) listeners.delete(at)
      }
    },
    close: async () => {
      closed = true
      clearTimeout(retry)
      listeners.clear()
      const client = await connection
      connection = undefined
      try {
        client?.release(true)
      } catch {
        // Released already (its connection failed).
      }
    },
  }
}
