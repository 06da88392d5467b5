/**
 * Connections the library closes keep an error listener until they are gone: the server may
 * report a connection's end (an administrator's disconnect, a dropped database) while it closes,
 * and an `'error'` event nobody listens to crashes the whole process (R59).
 */
import { EventEmitter } from 'node:events'
import { describe, expect, it } from 'vitest'
import type { PooledClient, PostgresPool } from '../../../src/postgres/db/pgTypes.js'
import { connectWithin, withConnection } from '../../../src/postgres/db/timeouts.js'

/** A pooled client as pg's pool hands it out: an emitter with `query` and `release`. */
class Client extends EventEmitter {
  released: boolean | Error | undefined = undefined
  constructor(private readonly answer: () => Promise<unknown>) {
    super()
  }
  query() {
    return this.answer()
  }
  release(destroy?: boolean | Error) {
    this.released = destroy ?? false
  }
}
const poolOf = (client: Client, connect = () => Promise.resolve(client)): PostgresPool => ({
  connect: connect as unknown as () => Promise<PooledClient>,
})

describe('withConnection and connectWithin leave no connection without an error listener', () => {
  it('R59: a connection returned to the pool is the pool’s again (our listener goes)', async () => {
    const client = new Client(() => Promise.resolve({ rows: [] }))
    await withConnection(poolOf(client), 1_000, (query) => query('SELECT 1'))
    expect(client.released).toBe(false)
    expect(client.listenerCount('error')).toBe(0)
  })

  it('R59: a connection closed after it failed keeps a listener, and its late error is ignored', async () => {
    const client = new Client(() => Promise.reject(new Error('connection terminated')))
    const pool = poolOf(client)
    // The failed query marks the connection broken only through its 'error' event (as pg does).
    const work = withConnection(pool, 1_000, async (query) => {
      client.emit('error', new Error('terminating connection due to administrator command'))
      return query('SELECT 1')
    })
    await expect(work).rejects.toThrow('connection terminated')
    expect(client.released).toBe(true)
    expect(client.listenerCount('error')).toBeGreaterThan(0)
    expect(() => client.emit('error', new Error('57P01 while closing'))).not.toThrow()
  })

  it('R59: a connection that arrives after the timeout is closed with a listener on it', async () => {
    const client = new Client(() => Promise.resolve({ rows: [] }))
    let hand: (c: Client) => void = () => {}
    const pool = poolOf(client, () => new Promise<Client>((resolve) => (hand = resolve)))
    await expect(connectWithin(pool, 10)).rejects.toThrow(/within 10 ms|did not answer/)
    hand(client)
    await new Promise((resolve) => setImmediate(resolve))
    expect(client.released).toBe(true)
    expect(() => client.emit('error', new Error('57P01 while closing'))).not.toThrow()
  })
})
