/**
 * R55, R54 across a failover: an owner process is SIGKILLed right after it applied a remote edit
 * (its checkpoint may or may not have committed), another edit is stored while no one owns the
 * session, and a new owner process takes over. Each edit is applied exactly once across both
 * owners: the journal holds one owner `replace` record per remote replace, in order.
 */
import { afterAll, beforeAll, expect, it } from 'vitest'
import { connectSessions, migrate } from '../../../src/postgres.js'
import { bundleChild, type ChildProgram } from '../../support/bundleChild.js'
import type { Child } from '../../support/childProcesses.js'
import { createTestDatabase, type TestDatabase } from '../../support/testDatabase.js'

let db: TestDatabase
let program: ChildProgram
beforeAll(async () => {
  db = await createTestDatabase()
  await migrate(db.pool)
  program = await bundleChild('editOwnerChild', { deadlineMs: 120_000 })
}, 60_000)
afterAll(async () => {
  program.remove()
  await db.drop()
})

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

const remoteApplied = async (sessionId: string): Promise<number> =>
  Number(
    (await db.pool.query('SELECT remote_applied FROM steerable_sessions WHERE id = $1', [sessionId])).rows[0]
      ?.remote_applied ?? 0,
  )

const lastEditSeq = async (sessionId: string): Promise<number> =>
  Number(
    (
      await db.pool.query(
        `SELECT max(seq) AS seq FROM steerable_inbox WHERE session_id = $1 AND op LIKE 'remote-%'`,
        [sessionId],
      )
    ).rows[0]?.seq,
  )

const untilApplied = async (sessionId: string, seq: number): Promise<void> => {
  for (let tries = 0; tries < 1_000 && (await remoteApplied(sessionId)) < seq; tries++) await sleep(20)
  expect(await remoteApplied(sessionId)).toBeGreaterThanOrEqual(seq)
}

it('R55, R54: a SIGKILLed owner between two remote edits: the next owner applies each edit once, none lost', async () => {
  const client = connectSessions(db.pool, { pollMs: 100 })
  const startOwner = async (session: string): Promise<Child> => {
    const child = program.start({ env: { DATABASE_URL: db.url, SESSION: session } })
    await child.line(/^ready$/)
    return child
  }
  try {
    for (let round = 0; round < 6; round++) {
      const name = `edit-failover-${round}`
      const remote = client.session(name)
      await remote.followup('a turn that never ends')
      const queued = await remote.followup('original')
      const first = await startOwner(name)
      await remote.replace(queued, 'v1')
      await first.line(/^applied \d+ remote-replace$/)
      // Even rounds: killed at once, its checkpoint racing the kill. Odd rounds: killed once the
      // edit is recorded as applied, so the next owner must not apply it again.
      if (round % 2 === 1) await untilApplied(name, await lastEditSeq(name))
      first.signal('SIGKILL')
      await first.exit
      await remote.replace(queued, 'v2')
      const second = await startOwner(name)
      await untilApplied(name, await lastEditSeq(name))
      second.signal('SIGKILL')
      await second.exit
      expect(second.lines.filter((l) => l.startsWith('error '))).toEqual([])
      const { rows } = await db.pool.query(
        `SELECT record FROM steerable_inbox WHERE session_id = $1 AND op = 'replace' ORDER BY seq`,
        [name],
      )
      expect(rows.map((row) => row.record.message.content[0].text)).toEqual(['v1', 'v2'])
    }
  } finally {
    await client.close()
  }
}, 180_000)
