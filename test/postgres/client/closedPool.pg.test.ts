/**
 * A client whose pool was ended under it: what it follows ends with a typed error on the stream or
 * the promise, and nothing rejects or throws where no one listens (an unhandled rejection ends a
 * Node process).
 */
import pg from 'pg'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { SessionStoreError } from '../../../src/index.js'
import { connectSessions, migrate } from '../../../src/postgres.js'
import { createTestDatabase, type TestDatabase } from '../../support/testDatabase.js'
import { until } from '../../support/until.js'

let db: TestDatabase
beforeAll(async () => {
  db = await createTestDatabase()
  await migrate(db.pool)
}, 60_000)
afterAll(async () => {
  await db.drop()
})

it('R56: after pool.end(), transcript$, approvals$, outcome() and sends fail with SessionStoreError, and nothing is unhandled', async () => {
  const unhandled: unknown[] = []
  const note = (error: unknown) => unhandled.push(error)
  process.on('unhandledRejection', note)
  process.on('uncaughtException', note)
  try {
    const pool = new pg.Pool({ connectionString: db.url })
    pool.on('error', () => {})
    const client = connectSessions(pool, { pollMs: 20 })
    const session = client.session('closing')
    const id = await session.followup('hello')
    const errors: unknown[] = []
    const seen: string[] = []
    session.transcript$.subscribe({ next: (e) => seen.push(e.type), error: (e) => errors.push(e) })
    let lists = 0
    session.approvals$.subscribe({ next: () => lists++, error: (e) => errors.push(e) })
    session.events$.subscribe({ error: (e) => errors.push(e) })
    await until(() => lists > 0, 'the first reads')
    const ended = pool.end()
    const outcome = session.outcome(id).catch((error: unknown) => error)
    await until(() => errors.length >= 2, 'transcript$ and approvals$ end with their error')
    for (const error of errors) expect(error).toBeInstanceOf(SessionStoreError)
    expect(await outcome).toBeInstanceOf(SessionStoreError)
    await expect(session.steer('late')).rejects.toBeInstanceOf(SessionStoreError)
    // Following after the end: the LISTEN connection cannot open, the read fails, on the stream.
    session.events$.subscribe({ error: (e) => errors.push(e) })
    const late = await new Promise((resolve) => session.transcript$.subscribe({ error: resolve }))
    expect(late).toBeInstanceOf(SessionStoreError)
    // The pool's end waits for the client's LISTEN connection: close the client, then it ends.
    await client.close()
    await ended
    expect(unhandled).toStrictEqual([])
  } finally {
    process.off('unhandledRejection', note)
    process.off('uncaughtException', note)
  }
}, 60_000)
