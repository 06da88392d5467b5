/**
 * R67 end to end with real processes: a worker process drives a session whose tool needs
 * approval, and `steerable attach NAME` in another process shows each call that waits (its name
 * and arguments, with its id) and takes `/approve ID` and `/deny ID [reason]`.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { build } from 'esbuild'
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest'
import { migrate } from '../../src/postgres.js'
import { bundleChild, type Child, type ChildProgram, watchChild } from '../support/childProcesses.js'
import { committedEvents, liveListening } from '../support/postgresOwner.js'
import { createTestDatabase, type TestDatabase } from '../support/testDatabase.js'
import { until } from '../support/until.js'

// Inside the package, so the app's lazy import('pg') finds node_modules/pg as an app's would.
const root = mkdtempSync(join(import.meta.dirname, '..', '..', 'node_modules', '.steerable-cli-'))
const cli = join(root, 'cli.mjs')
let db: TestDatabase
let workers: ChildProgram
const running = new Set<ChildProcess>()
beforeAll(async () => {
  db = await createTestDatabase()
  await migrate(db.pool)
  workers = await bundleChild(
    join(import.meta.dirname, '..', 'support', 'children', 'approvalWorkerChild.ts'),
  )
  await build({
    entryPoints: ['src/cli.ts'],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile: cli,
    logLevel: 'silent',
  })
}, 120_000)
afterEach(() => {
  workers.killAll()
  for (const child of running) child.kill('SIGKILL')
  running.clear()
})
afterAll(async () => {
  workers.remove()
  rmSync(root, { recursive: true, force: true })
  await db.drop()
})

const attach = (session: string): Child & { type(text: string): void; end(): void } => {
  const env = { ...process.env, DATABASE_URL: '', OPENAI_BASE_URL: '', OPENAI_API_KEY: '' }
  const proc = spawn(process.execPath, [cli, 'attach', session, '--database-url', db.url], {
    stdio: ['pipe', 'pipe', 'pipe'],
    env,
  })
  return {
    ...watchChild(proc, running),
    type: (text) => proc.stdin?.write(`${text}\n`),
    end: () => proc.stdin?.end(),
  }
}

/** The first line of `child` matching `pattern`, waited for as `until` waits (what it printed, if not). */
const line = async (child: Child, pattern: RegExp): Promise<string> => {
  await until(() => child.lines.some((l) => pattern.test(l)), `${pattern} in:\n${child.lines.join('\n')}`)
  return child.lines.find((l) => pattern.test(l)) as string
}

it('R67: attach shows the call that waits with its arguments, and /approve and /deny decide it', async () => {
  const worker = workers.start({ DATABASE_URL: db.url })
  await worker.line(/^ready$/)
  const attached = attach('gated')
  await line(attached, /^attached to gated/)
  await liveListening(db.pool, 'gated')

  attached.type('/followup deploy it')
  await line(attached, /^ {2}⏸ deploy\(\{"target":"prod"\}\) waits for approval · deploy-1$/)
  await line(
    attached,
    /^approve\? deploy\(\{"target":"prod"\}\) · \/approve deploy-1 or \/deny deploy-1 \[reason\]$/,
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
  await line(attached, /^approve\? deploy\(\{"target":"prod"\}\) · \/approve deploy-2/)
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
