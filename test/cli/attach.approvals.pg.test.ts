/**
 * R67 end to end with real processes: a worker process drives a session whose tool needs
 * approval, and `steerable attach NAME` in another process shows each call that waits (its name
 * and arguments, with its id) and takes `/approve ID` and `/deny ID [reason]`.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { migrate } from '../../src/postgres.js'
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
  workers = await bundleChild('approvalWorkerChild', { deadlineMs: 180_000 })
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

it('R67: attach shows the call that waits with its arguments, and /approve and /deny decide it', async () => {
  const worker = workers.start({ env: { DATABASE_URL: db.url } })
  await worker.line(/^ready$/)
  const attached = attach('gated')
  await line(attached, /^attached to gated/)
  await liveListening(db.pool, 'gated')

  attached.type('/followup deploy it')
  await line(attached, /^ {2}⏸ deploy\(\{"target":"prod"\}\) waits for approval · deploy-1$/)
  await line(
    attached,
    /^approve deploy\(\{"target":"prod"\}\)\? y approves · n or n <reason> denies · \/approve deploy-1 or \/deny deploy-1 \[reason\]$/,
  )
  // The owner's status, live (events$).
  await line(attached, /^· paused$/)
  attached.type('/approve no-such-call')
  await line(
    attached,
    /^✗ not approved: approve\(\): no approval is pending for tool call "no-such-call"; session\.approvals\$ lists/,
  )
  attached.type('/approve deploy-1')
  await line(attached, /^✓ approved deploy-1$/)
  await line(attached, /^ {2}✓ deploy-1 approved \(user\)$/)
  await line(attached, /^ {2}↳ deployed$/)
  await line(attached, /^assistant › done$/)

  attached.type('/followup and again')
  await line(attached, /^approve deploy\(\{"target":"prod"\}\)\? .* \/approve deploy-2/)
  attached.type('/deny deploy-2 not on a Friday')
  await line(attached, /^✓ denied deploy-2$/)
  await line(attached, /^ {2}✗ deploy-2 denied \(user\): not on a Friday$/)
  attached.end()
  const exit = await attached.exit
  expect(exit.code).toBe(0)
  expect(exit.stderr).toBe('')

  await until(
    async () => (await committedEvents(db.pool, 'gated')).at(-1)?.type === 'turn/end',
    'turn 2 ends',
  )
  expect(worker.lines.filter((l) => l.startsWith('execute '))).toEqual(['execute gated deploy-1'])
  const results = (await committedEvents(db.pool, 'gated')).filter((e) => e.type === 'tool/result')
  expect(results.map((e) => e.data.result.code)).toEqual([undefined, 'DENIED'])
}, 180_000)

it("R67: in attach, y and n answer the call that waits, as in the owner's terminal, and are never sent as steers", async () => {
  const worker = workers.start({ env: { DATABASE_URL: db.url } })
  await worker.line(/^ready$/)
  const attached = attach('answered')
  await line(attached, /^attached to answered/)
  await liveListening(db.pool, 'answered')

  attached.type('/followup deploy it')
  await line(attached, /^approve deploy\(\{"target":"prod"\}\)\? y approves/)
  attached.type('y')
  await line(attached, /^✓ approved deploy-1$/)
  await line(attached, /^ {2}✓ deploy-1 approved \(user\)$/)
  await line(attached, /^assistant › done$/)
  attached.type('/followup and again')
  await line(attached, /^approve deploy\(\{"target":"prod"\}\)\? .* \/approve deploy-2/)
  attached.type('n not today')
  await line(attached, /^✓ denied deploy-2$/)
  await line(attached, /^ {2}✗ deploy-2 denied \(user\): not today$/)
  await until(
    async () => (await committedEvents(db.pool, 'answered')).at(-1)?.type === 'turn/end',
    'turn 2 ends',
  )
  attached.end()
  const exit = await attached.exit
  expect(exit.code).toBe(0)
  expect(exit.stderr).toBe('')
  const events = await committedEvents(db.pool, 'answered')
  expect(events.filter((e) => e.type === 'steering/message' || e.type === 'user/message')).toHaveLength(2)
  expect(worker.lines.filter((l) => l.startsWith('execute '))).toEqual(['execute answered deploy-1'])
}, 180_000)
