/**
 * R59: a database that is down, silent or cut off gives `SessionStoreError`s with the cause, in
 * bounded time, never a hang; an owner cut off from the database stops writing, and the server
 * frees its lease for the next owner.
 */
import pg from 'pg'
import { from, lastValueFrom } from 'rxjs'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { SessionStoreError } from '../../../src/index.js'
import { DatabaseTimeoutError, migrate, openPostgresSession } from '../../../src/postgres.js'
import { silentServer, tcpProxy } from '../../support/tcpProxy.js'
import { terminablePool } from '../../support/terminablePool.js'
import { createTestDatabase, type TestDatabase } from '../../support/testDatabase.js'

let db: TestDatabase
beforeAll(async () => {
  db = await createTestDatabase()
  await migrate(db.pool)
})
afterAll(() => db.drop())

/** A pool on the test database through `port` on 127.0.0.1 (a proxy, a silent server, nothing). */
const poolAt = (port: number) => {
  const url = new URL(db.url)
  url.hostname = '127.0.0.1'
  url.port = String(port)
  const pool = new pg.Pool({ connectionString: url.href, max: 4 })
  pool.on('error', () => {})
  return pool
}
const closedPort = async () => {
  const server = await silentServer()
  await server.close()
  return server.port
}

it('R59: nothing listening: opening, migrating and taking a lease fail with SessionStoreError naming the cause', async () => {
  const pool = poolAt(await closedPort())
  const opening = openPostgresSession(pool, 'down')
  await expect(opening).rejects.toBeInstanceOf(SessionStoreError)
  await expect(opening).rejects.toThrow(
    /session "down" on PostgreSQL: cannot read the session .*ECONNREFUSED.*start the server/,
  )
  await expect(opening.catch((e: Error) => (e.cause as { code?: string }).code)).resolves.toBe('ECONNREFUSED')
  await expect(migrate(pool)).rejects.toThrow(/PostgreSQL: cannot create its tables .*ECONNREFUSED/)
  await pool.end()
})

it('R59: a server that never answers: the open fails after the timeout instead of hanging', async () => {
  const silent = await silentServer()
  const pool = poolAt(silent.port)
  const opening = openPostgresSession(pool, 'silent', { timeoutMs: 300 })
  await expect(opening).rejects.toBeInstanceOf(SessionStoreError)
  await expect(opening.catch((e: Error) => e.cause)).resolves.toBeInstanceOf(DatabaseTimeoutError)
  await expect(opening).rejects.toThrow(/did not answer within 300 ms/)
  await silent.close()
  await pool.end()
})

it('R59, R54: an owner cut off from the database fails for good; the server frees the lease for the next owner', async () => {
  const proxy = await tcpProxy(Number(new URL(db.url).port))
  const cutOff = poolAt(proxy.port)
  const store = await openPostgresSession(cutOff, 'cut-off', { timeoutMs: 1_000 })
  await store.takeLease()
  store.append([{ seq: 1, type: 'turn/start', data: { turn: 1, trigger: { kind: 'retry' } } }])
  await lastValueFrom(from(store.flush()), { defaultValue: undefined })
  proxy.freeze()
  store.append([{ seq: 2, type: 'turn/start', data: { turn: 2, trigger: { kind: 'retry' } } }])
  const flushing = lastValueFrom(from(store.flush()), { defaultValue: undefined })
  await expect(flushing).rejects.toBeInstanceOf(SessionStoreError)
  await expect(flushing).rejects.toThrow(/lost its lease: a query did not answer within 1000 ms/)
  expect(() => store.append([])).toThrow(store.failure)

  // The server hears nothing more from the frozen holder and ends its session: the lock is free.
  const next = await openPostgresSession(db.pool, 'cut-off')
  for (let tries = 0; ; tries++) {
    try {
      await next.takeLease()
      break
    } catch (error) {
      if ((error as Error).name !== 'SessionLockedError' || tries > 300) throw error
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  }
  expect(next.load()).toHaveLength(1)
  await next.release()
  await proxy.close()
  await cutOff.end()
}, 60_000)

it('R59, R54: an owner whose connection the server ends fails for good as soon as it notices, before any write', async () => {
  const { pool, terminate } = terminablePool(db, 'noticed', 2)
  const store = await openPostgresSession(pool, 'noticed')
  await store.takeLease()
  await terminate()
  for (let tries = 0; store.failure === undefined && tries < 200; tries++)
    await new Promise((resolve) => setTimeout(resolve, 50))
  expect(store.failure).toBeInstanceOf(SessionStoreError)
  expect(store.failure?.message).toMatch(/session "noticed" on PostgreSQL: .*lost its lease: its connection/)
  expect(() => store.append([])).toThrow(store.failure)
  await pool.end()
})
