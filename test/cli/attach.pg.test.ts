/**
 * The terminal app on PostgreSQL, end to end with real processes: `steerable --database-url URL
 * --session NAME` drives a session (it takes the lease, applies remote sends, publishes its live
 * events) and `steerable attach NAME` in a second process follows it and sends into it (R55,
 * R56): a steer typed there lands in the running turn, a followup runs next.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { SessionEvent } from '../../src/index.js'
import { migrate } from '../../src/postgres.js'
import { type Child, runChild, startChild } from '../support/childProcesses.js'
import { buildCli } from '../support/cliCommand.js'
import { liveListening } from '../support/postgresOwner.js'
import { createTestDatabase, type TestDatabase } from '../support/testDatabase.js'

// Inside the package, so the app's lazy import('pg') finds node_modules/pg as an app's would.
const root = mkdtempSync(join(import.meta.dirname, '..', '..', 'node_modules', '.steerable-cli-'))
let cli = ''
let db: TestDatabase
beforeAll(async () => {
  db = await createTestDatabase()
  cli = await buildCli(root)
}, 60_000)
afterAll(async () => {
  rmSync(root, { recursive: true, force: true })
  await db.drop()
})

// The demo model's tool call takes long enough for the attached process to steer into the turn,
// even on a loaded machine (a steer typed after "· running" has five seconds to land).
const demo = { STEERABLE_DEMO_WORD_MS: '10', STEERABLE_DEMO_TOOL_MS: '5000' }
const env = { ...process.env, ...demo, OPENAI_BASE_URL: '', OPENAI_API_KEY: '', DATABASE_URL: '' }
const start = (
  args: readonly string[],
  more: Record<string, string> = {},
): Child & { type(text: string): void } => {
  const child = startChild(process.execPath, [cli, ...args], {
    deadlineMs: 120_000,
    env: { ...env, ...more },
  })
  return Object.assign(child, { type: (text: string) => child.write(`${text}\n`) })
}
const run = (args: readonly string[]) =>
  runChild(process.execPath, [cli, ...args], { deadlineMs: 60_000, env })
const transcript = async (session: string) => {
  const { rows } = await db.pool.query(
    'SELECT event FROM steerable_events WHERE session_id = $1 ORDER BY seq',
    [session],
  )
  return rows.map((r) => r.event as SessionEvent)
}

/** The first line matching `pattern`; after 20 s, a failure that shows what each process printed. */
const expectLine = (child: Child, pattern: RegExp) => child.line(pattern, { withinMs: 20_000 })

it('R55, R56: a second terminal attached to a session steers its running turn and queues a followup', async () => {
  const driver = start(['--database-url', db.url, '--session', 'desk'])
  await expectLine(driver, /^driving desk on PostgreSQL/)
  const attached = start(['attach', 'desk', '--database-url', db.url])
  await expectLine(attached, /^attached to desk/)
  await liveListening(db.pool, 'desk')
  attached.type('/followup tell me about rxjs')
  // The owner's live status reached the attached process (events$): the turn runs.
  await expectLine(attached, /^· running$/)
  attached.type('be brief')
  await expectLine(attached, /^✓ steered into 1\.\d+ · be brief$/)
  attached.type('/followup and then operators')
  await expectLine(attached, /^✓ ran as turn 2 · and then operators$/)
  await expectLine(attached, /^· idle$/)
  attached.end()
  expect((await attached.exit).code).toBe(0)
  expect(attached.lines).toContain('you › tell me about rxjs')
  expect(attached.lines).toContain('you (steer) › be brief')
  expect(attached.lines.some((l) => l.startsWith('assistant › ') && l.includes('You said "be brief"'))).toBe(
    true,
  )

  driver.end()
  const exit = await driver.exit
  expect(exit.code).toBe(0)
  expect(exit.stderr).toBe('')
  expect(driver.lines).toContain('you (steer) › be brief')
  expect(driver.lines).toContain('you › and then operators')
  const steering = (await transcript('desk')).find((e) => e.type === 'steering/message')
  expect(steering?.data).toMatchObject({ turn: 1, content: [{ type: 'text', text: 'be brief' }] })
}, 120_000)

it('R58: /cancel typed in the attached terminal cancels the running turn and discards what waits', async () => {
  // A tool that runs for ten minutes: the turn ends by the cancel, whatever the machine's load.
  const driver = start(['--database-url', db.url, '--session', 'halt'], { STEERABLE_DEMO_TOOL_MS: '600000' })
  await expectLine(driver, /^driving halt on PostgreSQL/)
  const attached = start(['attach', 'halt', '--database-url', db.url])
  await expectLine(attached, /^attached to halt/)
  await liveListening(db.pool, 'halt')
  attached.type('/followup a long story')
  await expectLine(attached, /^· running$/)
  attached.type('/followup never told')
  attached.type('/cancel')
  await expectLine(attached, /^✓ cancel sent$/)
  await expectLine(attached, /^✗ dropped \(cancel\) · never told$/)
  await expectLine(attached, /^· idle$/)
  attached.end()
  expect((await attached.exit).code).toBe(0)
  driver.end()
  expect((await driver.exit).code).toBe(0)
  const events = await transcript('halt')
  expect(events.filter((e) => e.type === 'turn/end').map((e) => e.data)).toMatchObject([
    { turn: 1, reason: { kind: 'aborted' } },
  ])
  expect(JSON.stringify(events)).not.toContain('never told')
}, 120_000)

it('R54: a second driver of the same session is refused with a clear error (exit 1)', async () => {
  const driver = start(['--database-url', db.url, '--session', 'taken'])
  await driver.line(/^driving taken/)
  const second = run(['--database-url', db.url, '--session', 'taken'])
  expect(second.status).toBe(1)
  expect(second.stderr).toMatch(/^steerable: .*taken/)
  driver.end()
  expect((await driver.exit).code).toBe(0)
}, 90_000)

const closed = 'postgres://x:y@127.0.0.1:1/none'

it('R59: a database that is not there gives its cause and exit 1, driving or attaching', () => {
  const driving = run(['--database-url', closed, '--session', 's'])
  expect(driving.status).toBe(1)
  expect(driving.stderr).toMatch(/^steerable: .*ECONNREFUSED/)
  const attaching = run(['attach', 's', '--database-url', closed])
  expect(attaching.status).toBe(1)
  expect(attaching.stderr).toMatch(/^steerable attach: .*ECONNREFUSED/)
}, 90_000)

it('a URL that is not one, --database-url without --session, attach without a name: exit 2', () => {
  const typo = run(['--database-url', 'localhost:5432', '--session', 's'])
  expect(typo.status).toBe(2)
  expect(typo.stderr).toMatch(/--database-url: expected a URL like postgres:\/\//)
  const noSession = run(['--database-url', closed])
  expect(noSession.status).toBe(2)
  expect(noSession.stderr).toMatch(/--database-url: also give --session NAME/)
  const noName = run(['attach', '--database-url', closed])
  expect(noName.status).toBe(2)
  expect(noName.stderr).toMatch(/name the session/)
}, 90_000)

it('attach to a session no one has used says so, with how to start it, and exits 1; --new attaches to it', async () => {
  await migrate(db.pool)
  const missing = run(['attach', 'nosuch', '--database-url', db.url])
  expect(missing.status).toBe(1)
  expect(missing.stdout).toBe('')
  expect(missing.stderr).toMatch(/^steerable attach: no session "nosuch" in this database/)
  expect(missing.stderr).toContain('steerable --database-url URL --session nosuch')
  expect(missing.stderr).toContain('steerable attach nosuch --new')
  const created = start(['attach', 'nosuch', '--new', '--database-url', db.url])
  await expectLine(created, /^attached to nosuch/)
  created.end()
  expect((await created.exit).code).toBe(0)
}, 90_000)

it('--help lists --database-url and steerable attach; attach --help explains what typing does', () => {
  const help = run(['--help'])
  expect(help.status).toBe(0)
  expect(help.stdout).toMatch(/--database-url URL/)
  expect(help.stdout).toMatch(/steerable attach NAME/)
  const attach = run(['attach', '--help'])
  expect(attach.status).toBe(0)
  expect(attach.stdout).toMatch(
    /plain text steers the running turn, and is a followup while the session is idle/,
  )
})

it('/quit leaves at once while stdin stays open: the attached terminal once what it typed is stored, the driver ending its running turn', async () => {
  // A tool that runs for ten minutes: only the quits end anything, whatever the machine's load.
  const driver = start(['--database-url', db.url, '--session', 'leave', '--events'], {
    STEERABLE_DEMO_TOOL_MS: '600000',
  })
  await expectLine(driver, /^driving leave on PostgreSQL/)
  const attached = start(['attach', 'leave', '--database-url', db.url])
  await expectLine(attached, /^attached to leave/)
  await liveListening(db.pool, 'leave')
  attached.type('/followup a long story')
  await expectLine(attached, /^· running$/)
  attached.type('be brief')
  attached.type('/quit')
  // Each must exit within 30 s of its /quit.
  expect((await attached.exitWithin(30_000)).code).toBe(0)
  await expectLine(driver, /enqueue\(be brief,steering\)/)
  driver.type('/quit')
  expect((await driver.exitWithin(30_000)).code).toBe(0)
  const ends = (await transcript('leave')).filter((e) => e.type === 'turn/end')
  expect(ends).toHaveLength(1)
}, 120_000)

it('R77: /rollback in the attached terminal undoes turns where the session runs; a count past the turns there are says why', async () => {
  const driver = start(['--database-url', db.url, '--session', 'undo'], { STEERABLE_DEMO_TOOL_MS: '10' })
  await expectLine(driver, /^driving undo on PostgreSQL/)
  const attached = start(['attach', 'undo', '--database-url', db.url])
  await expectLine(attached, /^attached to undo/)
  await liveListening(db.pool, 'undo')
  attached.type('/followup first question')
  await expectLine(attached, /^✓ ran as turn 1 · first question$/)
  // A rollback counts the turns that ended: the client checks the committed log.
  await expectLine(attached, /^· idle$/)
  attached.type('/rollback 2')
  await expectLine(attached, /^✗ rollback not applied \(rollback\(\): turns: only 1 turn can be undone/)
  attached.type('/rollback')
  await expectLine(attached, /^\(rolled back to before the first turn\)$/)
  attached.end()
  expect((await attached.exit).code).toBe(1)
  driver.end()
  expect((await driver.exit).code).toBe(0)
  const log = await transcript('undo')
  expect(log.filter((e) => e.type === 'rollback').map((e) => e.data)).toEqual([{ toTurn: 0 }])
}, 120_000)
