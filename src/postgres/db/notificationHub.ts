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

export const notificationHub = (pool: PostgresPool, ms: number): NotificationHub =>
  new ListenConnection(pool, ms)

type Connection = Promise<PooledClient | undefined>

/** The shared LISTEN connection and the channels wanted on it. */
class ListenConnection implements NotificationHub {
  readonly #pool: PostgresPool
  readonly #ms: number
  readonly #wanted = new Map<string, Channel>()
  /** The channels LISTENed on the current connection. */
  readonly #listening = new Set<string>()
  /** Per channel, the LISTEN/UNLISTEN in flight: they run one at a time, in order. */
  readonly #syncing = new Map<string, Promise<void>>()
  #connection: Connection | undefined
  #closed = false
  #retry: ReturnType<typeof setTimeout> | undefined

  constructor(pool: PostgresPool, ms: number) {
    this.#pool = pool
    this.#ms = ms
  }

  listen(channel: string, key: string, wake: () => void): () => void {
    const entry = this.#entryOf(channel)
    const set = entry.keyed.get(key) ?? new Set()
    entry.keyed.set(key, set)
    set.add(wake)
    this.#sync(channel)
    return () => {
      set.delete(wake)
      if (set.size === 0 && entry.keyed.get(key) === set) entry.keyed.delete(key)
      this.#leave(channel, entry)
    }
  }

  follow(channel: string, onPayload: (payload: string) => void): () => void {
    const entry = this.#entryOf(channel)
    // A wrapper of its own, so the same function following twice is two followers.
    const follower = (payload: string) => onPayload(payload)
    entry.followers.add(follower)
    this.#sync(channel)
    return () => {
      entry.followers.delete(follower)
      this.#leave(channel, entry)
    }
  }

  async close(): Promise<void> {
    this.#closed = true
    clearTimeout(this.#retry)
    this.#wanted.clear()
    const client = await this.#connection
    this.#connection = undefined
    try {
      client?.release(true)
    } catch {
      // Released already (its connection failed).
    }
  }

  #retryLater(): void {
    if (this.#closed || this.#retry || this.#wanted.size === 0) return
    this.#retry = setTimeout(() => {
      this.#retry = undefined
      for (const channel of this.#wanted.keys()) this.#sync(channel)
    }, this.#ms)
    this.#retry.unref()
  }

  #open(): Connection {
    if (this.#connection) return this.#connection
    const opening: Connection = connectWithin(this.#pool, this.#ms).then(
      (client) => this.#opened(client, opening),
      () => {
        if (this.#connection === opening) this.#connection = undefined
        this.#retryLater()
        return undefined
      },
    )
    this.#connection = opening
    return opening
  }

  /** Wires a new connection: notifications to the channels' listeners, a loss to a retry. */
  #opened(client: PooledClient, opening: Connection): PooledClient {
    let dropped = false
    const drop = () => {
      if (dropped) return
      dropped = true
      if (this.#connection === opening) this.#connection = undefined
      this.#listening.clear()
      try {
        client.release(true)
      } catch {
        // Released already.
      }
      this.#retryLater()
    }
    client.on('error', drop)
    client.on('end', drop)
    client.on('notification', ({ channel, payload }) => {
      const entry = this.#wanted.get(channel)
      if (!entry) return
      for (const wake of entry.keyed.get(payload ?? '') ?? []) wake()
      for (const onPayload of entry.followers) onPayload(payload ?? '')
    })
    return client
  }

  /** Brings the connection's LISTEN of `channel` in line with whether anyone wants it. */
  async #step(channel: string): Promise<void> {
    const want = this.#wanted.has(channel)
    if (this.#closed || want === this.#listening.has(channel)) return
    const client = await this.#open()
    if (!client || this.#closed || this.#wanted.has(channel) === this.#listening.has(channel)) return
    const listen = this.#wanted.has(channel)
    // Channels are ours (constants, or a hash of the session id), never caller input.
    const command = `${listen ? 'LISTEN' : 'UNLISTEN'} ${channel}`
    try {
      await queryWithin(client, this.#ms, command, undefined, () => client.release(true))
    } catch {
      this.#listening.delete(channel)
      this.#retryLater()
      return
    }
    if (!listen) return void this.#listening.delete(channel)
    this.#listening.add(channel)
    // What committed before the LISTEN took effect sent its notification to nobody: read now.
    for (const wakes of this.#wanted.get(channel)?.keyed.values() ?? []) for (const wake of wakes) wake()
  }

  #sync(channel: string): void {
    const next = (this.#syncing.get(channel) ?? Promise.resolve()).then(() => this.#step(channel))
    this.#syncing.set(channel, next)
    void next.then(() => {
      if (this.#syncing.get(channel) === next) this.#syncing.delete(channel)
    })
  }

  #entryOf(channel: string): Channel {
    let entry = this.#wanted.get(channel)
    if (!entry) {
      entry = { keyed: new Map(), followers: new Set() }
      this.#wanted.set(channel, entry)
    }
    return entry
  }

  #leave(channel: string, entry: Channel): void {
    if (entry.keyed.size > 0 || entry.followers.size > 0 || this.#wanted.get(channel) !== entry) return
    this.#wanted.delete(channel)
    this.#sync(channel)
  }
}
