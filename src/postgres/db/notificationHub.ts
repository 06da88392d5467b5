import type { PooledClient, PostgresPool } from './pgTypes.js'
import { connectWithin, queryWithin } from './timeouts.js'

/**
 * One LISTEN connection shared by everything a client follows.
 *
 * - `listen(channel, key, wake)` calls `wake` for each notification on `channel` whose payload is
 *   `key` (a session id): a wake-up for a follower that then reads. Notifications only hurry
 *   things up there: followers also poll, so a lost connection costs latency, not events. Every
 *   such listener is woken once the LISTEN is (back) in place: what committed meanwhile is not
 *   left to the poll.
 * - `follow(channel, onPayload)` hands every payload on `channel` to `onPayload`: for channels
 *   whose notifications are the data (live events, which are not stored anywhere).
 *
 * The connection is opened with the first listener and closed by `close()`. A channel is
 * LISTENed while anyone listens on it and UNLISTENed when the last one leaves (per-session
 * channels come and go). A lost connection is opened again (after `ms`, and again after each
 * failure) while anyone listens.
 */
export type NotificationHub = {
  listen(channel: string, key: string, wake: () => void): () => void
  follow(channel: string, onPayload: (payload: string) => void): () => void
  close(): Promise<void>
}

type Channel = {
  readonly keyed: Map<string, Set<() => void>>
  readonly followers: Set<(payload: string) => void>
}

export const notificationHub = (pool: PostgresPool, ms: number): NotificationHub => {
  const wanted = new Map<string, Channel>()
  /** The channels LISTENed on the current connection. */
  const listening = new Set<string>()
  /** Per channel, the LISTEN/UNLISTEN in flight: they run one at a time, in order. */
  const syncing = new Map<string, Promise<void>>()
  let connection: Promise<PooledClient | undefined> | undefined
  let closed = false
  let retry: ReturnType<typeof setTimeout> | undefined

  const retryLater = () => {
    if (closed || retry || wanted.size === 0) return
    retry = setTimeout(() => {
      retry = undefined
      for (const channel of wanted.keys()) sync(channel)
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
          listening.clear()
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
          const entry = wanted.get(channel)
          if (!entry) return
          for (const wake of entry.keyed.get(payload ?? '') ?? []) wake()
          for (const onPayload of entry.followers) onPayload(payload ?? '')
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
  /** Brings the connection's LISTEN of `channel` in line with whether anyone wants it. */
  const step = async (channel: string): Promise<void> => {
    const want = wanted.has(channel)
    if (closed || want === listening.has(channel)) return
    const client = await open()
    if (!client || closed || wanted.has(channel) === listening.has(channel)) return
    const listen = wanted.has(channel)
    // Channels are ours (constants, or a hash of the session id), never caller input.
    const command = `${listen ? 'LISTEN' : 'UNLISTEN'} ${channel}`
    try {
      await queryWithin(client, ms, command, undefined, () => client.release(true))
    } catch {
      listening.delete(channel)
      retryLater()
      return
    }
    if (!listen) return void listening.delete(channel)
    listening.add(channel)
    // What committed before the LISTEN took effect sent its notification to nobody: read now.
    for (const wakes of wanted.get(channel)?.keyed.values() ?? []) for (const wake of wakes) wake()
  }
  const sync = (channel: string): void => {
    const next = (syncing.get(channel) ?? Promise.resolve()).then(() => step(channel))
    syncing.set(channel, next)
    void next.then(() => {
      if (syncing.get(channel) === next) syncing.delete(channel)
    })
  }
  const entryOf = (channel: string): Channel => {
    let entry = wanted.get(channel)
    if (!entry) {
      entry = { keyed: new Map(), followers: new Set() }
      wanted.set(channel, entry)
    }
    return entry
  }
  const leave = (channel: string, entry: Channel) => {
    if (entry.keyed.size > 0 || entry.followers.size > 0 || wanted.get(channel) !== entry) return
    wanted.delete(channel)
    sync(channel)
  }

  return {
    listen: (channel, key, wake) => {
      const entry = entryOf(channel)
      const set = entry.keyed.get(key) ?? new Set()
      entry.keyed.set(key, set)
      set.add(wake)
      sync(channel)
      return () => {
        set.delete(wake)
        if (set.size === 0 && entry.keyed.get(key) === set) entry.keyed.delete(key)
        leave(channel, entry)
      }
    },
    follow: (channel, onPayload) => {
      const entry = entryOf(channel)
      // A wrapper of its own, so the same function following twice is two followers.
      const follower = (payload: string) => onPayload(payload)
      entry.followers.add(follower)
      sync(channel)
      return () => {
        entry.followers.delete(follower)
        leave(channel, entry)
      }
    },
    close: async () => {
      closed = true
      clearTimeout(retry)
      wanted.clear()
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
