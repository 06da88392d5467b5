/**
 * R68, R71, R72 end to end with real processes: a worker process drives a session whose model
 * streams and then waits, and whose tool runs until cancelled; `steerable attach NAME` in another
 * process takes `!text` (a steer that cuts the answer being streamed) and shows each call the
 * owner starts with its id, which `/cancel-tool ID` cancels.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { filter, firstValueFrom } from 'rxjs'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { liveChannel } from '../../src/postgres/channels.js'
import { connectSessions, migrate } from '../../src/postgres.js'
import { bundleChild, type ChildProgram } from '../support/bundleChild.js'
import { type Child, startChild } from '../support/childProcesses.js'
import { buildCli } from '../support/cliCommand.js'
import { committedEvents, liveListening } from '../support/postgresOwner.js'
import { createTestDatabase, type TestDatabase } from '../support/testDatabase.js'
import { UNTIL_DEADLINE_MS, until } from '../support/until.js'

// Inside the package, so the app's lazy import('pg') finds node_modules/pg as an app's would.
const root = mkdtempSync(join(import.meta.dirname, '..', '..', 'node_modules', '.steerable-cli-'))
let cli = ''
let db: TestDatabase
let workers: ChildProgram
beforeAll(async () => {
  db = await createTestDatabase()
  await migrate(db.pool)
  workers = await bundleChild('interruptWorkerChild', { deadlineMs: 180_000 })
  cli = await buildCli(root)
}, 120_000)
afterAll(async () => {
  workers.remove()
  rmSync(root, { recursive: true, force: true })
  await db.drop()
})

const attach = (session: string): Child & { type(text: string): void } => {
  const env = { ...process.env, DATABASE_URL: '', OPENAI_BASE_URL: '', OPENAI_API_KEY: '' }
  // --new: the worker drives the session once the attached terminal's first send creates it.
  const child = startChild(process.execPath, [cli, 'attach', session, '--new', '--database-url', db.url], {
    deadlineMs: 180_000,
    env,
  })
  return Object.assign(child, { type: (text: string) => child.write(`${text}\n`) })
}

/** The first line of `child` matching `pattern`, within `until`'s deadline (what it printed, if not). */
const line = (child: Child, pattern: RegExp): Promise<string> =>
  child.line(pattern, { withinMs: UNTIL_DEADLINE_MS })

it('R68, R71, R72: in attach, !text cuts the answer the owner streams, and /cancel-tool ID cancels the call shown running', async () => {
  const worker = workers.start({ env: { DATABASE_URL: db.url } })
  await worker.line(/^ready$/)
  const session = 'attached-interrupt'
  // This process follows the live events too, to know when the model streams (a pipe shows no deltas).
  const client = connectSessions(db.pool, { pollMs: 100 })
  const delta = firstValueFrom(
    client.session(session).events$.pipe(filter((e) => e.type === 'agent/stream/delta')),
  )
  await until(async () => {
    const { rows } = await db.pool.query(
      'SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND query = $1',
      [`LISTEN ${liveChannel(session)}`],
    )
    return rows[0]?.n >= 1
  }, 'the LISTEN')
  const attached = attach(session)
  try {
    await line(attached, /^attached to attached-interrupt/)
    await liveListening(db.pool, 'attached-interrupt')
    attached.type('/followup stream')
    await delta
    // The worker's model never finishes this step by itself: only the steer ends it.
    attached.type('!stop now')
    await line(attached, /^✓ steered into 1\.2 \(cut 1\.1\) · stop now$/)
    await line(attached, /^you \(steer\) › stop now$/)
    await line(attached, /^assistant › ok$/)
    const answers = (await committedEvents(db.pool, session)).flatMap((e) =>
      e.type === 'assistant/message' ? [e.data] : [],
    )
    expect(answers).toMatchObject([
      { turn: 1, step: 1, interrupted: true },
      { turn: 1, step: 2 },
    ])

    attached.type('/cancel-tool')
    await line(attached, /^usage: \/cancel-tool N\|ID/)
    attached.type('/followup tool')
    await line(attached, /^ {2}⚙ slow running · \/cancel-tool slow-2$/)
    attached.type('/cancel-tool slow-2')
    await line(attached, /^✓ cancelled slow-2$/)
    await worker.line(/^aborted attached-interrupt slow-2$/)
    attached.type('/cancel-tool slow-2')
    await line(attached, /^✗ slow-2 was not running \(it finished, or the id is wrong\)$/)
    attached.end()
    const exit = await attached.exit
    expect(exit.code).toBe(0)
    expect(exit.stderr).toBe('')
    const result = (await committedEvents(db.pool, session)).find((e) => e.type === 'tool/result')
    expect(result?.data).toMatchObject({ turn: 2, result: { toolCallId: 'slow-2', code: 'CANCELLED' } })
    expect(worker.lines.filter((l) => l.startsWith('error '))).toEqual([])
  } finally {
    await client.close()
  }
}, 180_000)
