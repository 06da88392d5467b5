/**
 * R42 as R60 carries it: a remote `outcome(id)` of an id nobody sent into the session settles, with
 * InvalidInputError, once the database does not hold it: at once when no process drives the
 * session, else a timeout after the call; an id the database holds (or comes to hold meanwhile)
 * keeps waiting for its outcome.
 */
import { from, lastValueFrom } from 'rxjs'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { type AgentMessageId, InvalidInputError } from '../../../src/index.js'
import { connectSessions, migrate, openPostgresSession, type PostgresPool } from '../../../src/postgres.js'
import { add, id, removed, settle } from '../../support/inboxRecords.js'
import { createTestDatabase, type TestDatabase } from '../../support/testDatabase.js'

let db: TestDatabase
beforeAll(async () => {
  db = await createTestDatabase()
  await migrate(db.pool)
})
afterAll(() => db.drop())

it('R42, R60: outcome() of an id nobody sent rejects with InvalidInputError naming the id', async () => {
  const client = connectSessions(db.pool, { timeoutMs: 500, pollMs: 100 })
  try {
    const session = client.session('unknown-id')
    // A session that exists and holds other messages, and one that does not exist at all.
    await session.followup('a real one')
    for (const where of [session, client.session('no-such-session')]) {
      const error = await where.outcome('nobody-sent-this' as AgentMessageId).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(InvalidInputError)
      expect((error as Error).message).toMatch(/^outcome\(\): id: no message "nobody-sent-this" was sent/)
    }
  } finally {
    await client.close()
  }
})

/**
 * `db.pool`, watching the reads of whether the database holds an id: `reads(n)` resolves once `n`
 * of them answered; the second one waits for `release()` before it runs.
 */
const watchedPool = () => {
  let count = 0
  let waiting: { n: number; resolve: () => void }[] = []
  let release: () => void = () => {}
  const gate = new Promise<void>((resolve) => (release = resolve))
  const pool: PostgresPool = {
    connect: async () => {
      const client = await db.pool.connect()
      return new Proxy(client, {
        get: (target, key) => {
          if (key !== 'query') {
            const value = Reflect.get(target, key)
            return typeof value === 'function' ? value.bind(target) : value
          }
          return async (text: string, values?: unknown[]) => {
            const known = text.includes('AS known')
            if (known && count === 1) await gate
            const result = await target.query(text, values)
            if (known) {
              count++
              for (const w of waiting.filter((w) => w.n <= count)) w.resolve()
              waiting = waiting.filter((w) => w.n > count)
            }
            return result
          }
        },
      }) as never
    },
  }
  const reads = (n: number) =>
    new Promise<void>((resolve) => (count >= n ? resolve() : waiting.push({ n, resolve })))
  return { pool, reads, release }
}

const flushed = (store: { flush(): unknown }) =>
  lastValueFrom(from(store.flush() as never), { defaultValue: undefined })

it('R42, R60: an id this client sent is known at its first read, however short the timeout', async () => {
  const { pool, reads } = watchedPool()
  const client = connectSessions(pool, { timeoutMs: 300, pollMs: 100 })
  try {
    const session = client.session('own-send')
    const sent = await session.followup('waits for an owner')
    const outcome = session.outcome(sent)
    await reads(1)
    // Found: no second read, nothing to refuse; the outcome comes when the owner settles it.
    const store = await openPostgresSession(db.pool, 'own-send')
    await store.takeLease()
    store.inbox.append([settle(sent, removed)])
    await flushed(store)
    expect(await outcome).toEqual(removed)
    await store.release()
  } finally {
    await client.close()
  }
})

it('R42, R55: an id an owner makes durable before the second read is awaited, not refused', async () => {
  const { pool, reads, release } = watchedPool()
  // The second read waits at the gate inside its query: a timeout that leaves the owner's flush
  // room on a loaded machine (a read that timed out would never count, and the test would hang).
  const client = connectSessions(pool, { timeoutMs: 2_000, pollMs: 100 })
  // An owner drives the session: an id missing at the first read may be one of its own sends.
  const store = await openPostgresSession(db.pool, 'late-owner')
  await store.takeLease()
  try {
    const outcome = client.session('late-owner').outcome(id('late'))
    await reads(1)
    // Missing at the first read; the owner's add is durable before the second.
    store.inbox.append([add('late', 'parked')])
    await flushed(store)
    release()
    await reads(2)
    store.inbox.append([settle('late', removed)])
    await flushed(store)
    expect(await outcome).toEqual(removed)
    await store.release()
  } finally {
    await client.close()
  }
})
