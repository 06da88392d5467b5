/**
 * A remote send goes through the same check as a local one (`parseSendValue`), so an empty one
 * is refused the same way, before anything is written to the journal.
 */
import { afterAll, beforeAll, expect, it } from 'vitest'
import { type AgentMessageId, InvalidInputError } from '../../../src/index.js'
import { connectSessions, migrate } from '../../../src/postgres.js'
import { createTestDatabase, type TestDatabase } from '../../support/testDatabase.js'

let db: TestDatabase
beforeAll(async () => {
  db = await createTestDatabase()
  await migrate(db.pool)
})
afterAll(() => db.drop())

const EMPTY_TEXT = 'input: empty text: pass the text to send (not empty, not only whitespace)'

it('R55, R2: an empty remote send throws the local InvalidInputError at once and stores nothing', async () => {
  const client = connectSessions(db.pool)
  const session = client.session('empty')
  const refusals: [() => unknown, string][] = [
    [() => session.followup(''), `followup(): ${EMPTY_TEXT}`],
    [() => session.steer(' \n'), `steer(): ${EMPTY_TEXT}`],
    [() => session.inject(''), `inject(): ${EMPTY_TEXT}`],
    [() => session.send('', { target: 'next-turn', wakeup: true }), `send(): ${EMPTY_TEXT}`],
    [
      () => session.followup({ content: [{ type: 'text', text: '' }], source: { kind: 'user' } }),
      'followup(): input.content: no text',
    ],
    [() => session.replace('01M9462WZ5ZQHKYD6Q2N48FHE7' as AgentMessageId, ''), `replace(): ${EMPTY_TEXT}`],
  ]
  for (const [call, message] of refusals) {
    expect(call).toThrow(InvalidInputError)
    expect(call).toThrow(message)
  }
  const { rows } = await db.pool.query('SELECT seq FROM steerable_inbox WHERE session_id = $1', ['empty'])
  expect(rows).toEqual([])
  await client.close()
})
