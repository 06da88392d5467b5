/**
 * R42 as R60 carries it: a remote `outcome(id)` of a well-formed id (a ULID) that nobody sent
 * rejects with `InvalidInputError`, as the local `outcome()` of an id the agent never returned
 * does. Where no process drives the session (or there is no session), nothing can make the id
 * durable later, so the first read decides; where an owner drives it, the id may be one of the
 * owner's own sends before its checkpoint, so the read is made again a timeout later.
 */
import { afterAll, beforeAll, expect, it } from 'vitest'
import { type AgentMessageId, InvalidInputError } from '../../../src/index.js'
import { connectSessions, migrate, type PostgresPool } from '../../../src/postgres.js'
import { ownSession } from '../../support/postgresOwner.js'
import { createTestDatabase, type TestDatabase } from '../../support/testDatabase.js'

let db: TestDatabase
beforeAll(async () => {
  db = await createTestDatabase()
  await migrate(db.pool)
})
afterAll(() => db.drop())

const nobodySent = '01ARZ3NDEKTSV4RRFFQ69G5FAV' as AgentMessageId

/** `db.pool`, counting the reads of whether the database holds `nobodySent`. */
const countingPool = () => {
  const counted = { reads: 0 }
  const pool: PostgresPool = {
    connect: async () => {
      const client = await db.pool.connect()
      return new Proxy(client, {
        get: (target, key) => {
          const value = Reflect.get(target, key)
          if (key !== 'query') return typeof value === 'function' ? value.bind(target) : value
          return (text: string, values?: unknown[]) => {
            if (text.includes('AS known') && values?.[1] === nobodySent) counted.reads++
            return target.query(text, values)
          }
        },
      }) as never
    },
  }
  return { pool, counted }
}

const refusal = (outcome: Promise<unknown>) => outcome.catch((e: unknown) => e)

it('R42, R60: a ULID nobody sent, in a session nobody drives or in none, is refused at the first read', async () => {
  const { pool, counted } = countingPool()
  // A timeout far longer than the test's: only a refusal at the first read passes.
  const client = connectSessions(pool, { timeoutMs: 600_000, pollMs: 100 })
  try {
    const session = client.session('nobody-drives')
    await session.followup('a real one')
    for (const where of [session, client.session('no-such-session')]) {
      const before = counted.reads
      const error = await refusal(where.outcome(nobodySent))
      expect(error).toBeInstanceOf(InvalidInputError)
      expect((error as Error).message).toContain(`no message "${nobodySent}" was sent`)
      expect((error as Error).message).toContain('no process drives it')
      expect(counted.reads - before).toBe(1)
    }
  } finally {
    await client.close()
  }
})

it('R42, R60: in a session an owner drives, it is refused when still missing a timeout later', async () => {
  const owner = await ownSession(db.pool, 'driven', ['Hello.'])
  const { pool, counted } = countingPool()
  const client = connectSessions(pool, { timeoutMs: 500, pollMs: 100 })
  try {
    const session = client.session('driven')
    const sent = await session.followup('hi')
    expect(await session.outcome(sent)).toMatchObject({ kind: 'delivered', as: 'prompt' })
    const before = counted.reads
    const error = await refusal(session.outcome(nobodySent))
    expect(error).toBeInstanceOf(InvalidInputError)
    expect((error as Error).message).toContain('within 500 ms')
    expect(counted.reads - before).toBe(2)
    expect(owner.failures).toEqual([])
  } finally {
    await client.close()
    await owner.release()
  }
})
