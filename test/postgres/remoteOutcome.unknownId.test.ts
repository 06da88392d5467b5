/**
 * R42 as R60 carries it: a remote `outcome(id)` of an id nobody sent into the session settles, with
 * InvalidInputError, once the database still does not hold it a timeout after the call; an id the
 * database holds (or comes to hold meanwhile) keeps waiting for its outcome.
 */
import { from, lastValueFrom } from 'rxjs'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { type AgentMessageId, InvalidInputError } from '../../src/index.js'
import { connectSessions, migrate, openPostgresSession, type PostgresPool } from '../../src/postgres.js'
import { add, id, removed, settle } from '../support/inboxRecords.js'
import { createTestDatabase, type TestDatabase } from '../support/testDatabase.js'

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

/** `db.pool`, counting the reads of whether the database holds an id; `next()` waits for one more. */
const countingPool = () => {
  let count = 0
  let waiting: { n: number; resolve: () => void }[] = []
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
            const result = await target.query(text, values)
            if (text.includes('AS known')) {
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
  return { pool, reads }
}

it('R42, R60: an id the client sent is not refused when the timeout passes: it waits for its outcome', async () => {
  const { pool, reads } = countingPool()
  const client = connectSessions(pool, { timeoutMs: 300, pollMs: 100 })
  try {
    const session = client.session('own-send')
    const sent = await session.followup('waits for an owner')
    const outcome = session.outcome(sent)
    // Both reads done (at the call, and the timeout later): the id was found, nothing refused.
    await reads(2)
    const store = await openPostgresSession(db.pool, 'own-send')
    await store.takeLease()
    store.inbox.append([settle(sent, removed)])
    await lastValueFrom(from(store.flush()), { defaultValue: undefined })
    expect(await outcome).toEqual(removed)
    await store.release()
  } finally {
    await client.close()
  }
})

it('R42, R55: an id an owner makes durable within the timeout is awaited, not refused', async () => {
  const client = connectSessions(db.pool, { timeoutMs: 2_000, pollMs: 100 })
  try {
    const outcome = client.session('late-owner').outcome(id('late'))
    const store = await openPostgresSession(db.pool, 'late-owner')
    await store.takeLease()
    store.inbox.append([add('late'), settle('late', removed)])
    await lastValueFrom(from(store.flush()), { defaultValue: undefined })
    expect(await outcome).toEqual(removed)
    await store.release()
  } finally {
    await client.close()
  }
})
