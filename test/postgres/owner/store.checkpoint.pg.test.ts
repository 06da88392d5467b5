/**
 * Checkpoints on PostgreSQL (R53, R40): one transaction, retried whole after a failure; what is
 * read back is what was written, whatever the text holds; a corrupt row stops the open (R37).
 */
import { from, lastValueFrom } from 'rxjs'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createAgent, type SessionEvent, type SessionStore, SessionStoreError } from '../../../src/index.js'
import { migrate, openPostgresSession } from '../../../src/postgres.js'
import { scriptedModel } from '../../../src/testing.js'
import { add } from '../../support/inboxRecords.js'
import { createTestDatabase, type TestDatabase } from '../../support/testDatabase.js'

let db: TestDatabase
beforeAll(async () => {
  db = await createTestDatabase()
  await migrate(db.pool)
  // A real failure inside the database: the journal refuses a record whose message id is 'poison'.
  await db.pool.query(`
    CREATE FUNCTION refuse_poison() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NEW.message_id = 'poison' THEN
        RAISE EXCEPTION 'poison refused';
      END IF;
      RETURN NEW;
    END $$;
    CREATE TRIGGER refuse_poison BEFORE INSERT ON steerable_inbox FOR EACH ROW EXECUTE FUNCTION refuse_poison();
  `)
})
afterAll(() => db.drop())

const turnStart = (seq: number): SessionEvent => ({
  seq,
  type: 'turn/start',
  data: { turn: seq, trigger: { kind: 'retry' } },
})
const flushed = (store: SessionStore) => lastValueFrom(from(store.flush()), { defaultValue: undefined })
const rows = async (table: string, sessionId: string) =>
  Number(
    (await db.pool.query(`SELECT count(*) AS n FROM ${table} WHERE session_id = $1`, [sessionId])).rows[0].n,
  )

it('R53, R40: a checkpoint is one transaction: when part of it fails nothing is written, and the next writes it all', async () => {
  const store = await openPostgresSession(db.pool, 'one-transaction')
  await store.takeLease()
  store.append([turnStart(1), turnStart(2)])
  store.inbox.append([add('fine'), add('poison')])
  const error = await flushed(store).then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(SessionStoreError)
  expect(String((error as Error).message)).toMatch(/poison refused.*nothing was lost/)
  expect(await rows('steerable_events', 'one-transaction')).toBe(0)
  expect(await rows('steerable_inbox', 'one-transaction')).toBe(0)

  await db.pool.query('DROP TRIGGER refuse_poison ON steerable_inbox')
  await flushed(store)
  const reopened = await openPostgresSession(db.pool, 'one-transaction')
  expect(reopened.load()).toEqual([turnStart(1), turnStart(2)])
  expect(reopened.inbox.load()).toEqual([add('fine'), add('poison')])
  await store.release()
})

it('R53, R1: text round-trips exactly, U+0000 and lone surrogates included', async () => {
  const store = await openPostgresSession(db.pool, 'odd-text')
  await store.takeLease()
  const agent = createAgent({ model: scriptedModel(['ok']), store })
  const text = 'nul \u0000 lone \ud800 emoji 🦀 quote " backslash \\'
  agent.followup(text)
  await agent.whenIdle()
  await agent.dispose()
  const reopened = await openPostgresSession(db.pool, 'odd-text')
  expect(reopened.load()).toEqual(agent.session.events)
  expect(JSON.stringify(reopened.load())).toContain(JSON.stringify(text).slice(1, -1))
})

it('R37: a corrupt event row stops the open with an error naming the session and row; nothing changes', async () => {
  const store = await openPostgresSession(db.pool, 'corrupt')
  await store.takeLease()
  store.append([turnStart(1), turnStart(2)])
  await flushed(store)
  await store.release()
  await db.pool.query(
    `UPDATE steerable_events SET event = '{"seq":2,"type":"nonsense"}' WHERE session_id = 'corrupt' AND seq = 2`,
  )
  const opening = openPostgresSession(db.pool, 'corrupt')
  await expect(opening).rejects.toBeInstanceOf(SessionStoreError)
  await expect(opening).rejects.toThrow(/session "corrupt" on PostgreSQL: event row 2 is not a valid event/)
  expect(await rows('steerable_events', 'corrupt')).toBe(2)
})

it('R37, R50: a corrupt inbox journal row stops the open with an error naming the session and row', async () => {
  const store = await openPostgresSession(db.pool, 'corrupt-journal')
  await store.takeLease()
  store.inbox.append([add('kept')])
  await flushed(store)
  await store.release()
  await db.pool.query(
    `UPDATE steerable_inbox SET record = '{"op":"add","message":{"id":"kept"}}' WHERE session_id = 'corrupt-journal'`,
  )
  const opening = openPostgresSession(db.pool, 'corrupt-journal')
  await expect(opening).rejects.toBeInstanceOf(SessionStoreError)
  await expect(opening).rejects.toThrow(
    /session "corrupt-journal" on PostgreSQL: inbox journal row 1: invalid inbox record/,
  )
})
