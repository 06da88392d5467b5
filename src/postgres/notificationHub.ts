import type { PooledClient, PostgresPool } from './pgTypes.js'
import { connectWithin, queryWithin } from './timeouts.js'

/**
 * One LISTEN connection shared by everything a client follows: `listen(channel, key, wake)`
 * calls `wake` for each notification on `channel` whose payload is `key` (a session id). The
 * connection is opened with the first listener and closed by `close()`. Notifications only
 * hurry things up: followers also poll, so a lost connection costs latency, not events; it is
 * opened again for the next listener.
 */
export type NotificationHub = {
  listen(channel: string, key: string, wake: () => void): () => void
  close(): Promise<void>
}

export const notificationHub = (pool: PostgresPool, ms: number): NotificationHub => {
  const listeners = new Map<string, Set<() => void>>()
  let connection: Promise<PooledClient | undefined> | undefined
  const channels = new Set<string>()

  const open = () => {
    connection ??= connectWithin(pool, ms).then(
      (client) => {
        const drop = () => {
          if (connection === opened) connection = undefined
          channels.clear()
        }
        client.on('error', drop)
        client.on('end', drop)
        client.on('notification', ({ channel, payload }) => {
          for (const wake of listeners.get(`${channel}\u0000${payload ?? ''}`) ?? []) wake()
        })
        return client
      },
      () => {
        connection = undefined
        return undefined
      },
    )
    const opened = connection
    return opened
  }
  const subscribe = async (channel: string) => {
    const client = await open()
    if (!client || channels.has(channel)) return
    channels.add(channel)
    try {
      // The channel is a constant of ours, never caller input.
      await queryWithin(client, ms, `LISTEN ${channel}`, undefined, () => client.release(true))
    } catch {
      channels.delete(channel)
      return
    }
    // What committed before the LISTEN took effect sent its notification to nobody: read now.
    for (const [at, wakes] of listeners)
      if (at.startsWith(`${channel}\u0000`)) for (const wake of wakes) wake()
  }

  return {
    listen: (channel, key, wake) => {
      const at = `${channel}\u0000${key}`
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
      listeners.clear()
      const client = await connection
      connection = undefined
      client?.release(true)
    },
  }
}
