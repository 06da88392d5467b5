/**
 * R68, R71, R72 end to end with real processes: a worker process drives a session whose model
 * streams and then waits, and whose tool runs until cancelled; `steerable attach NAME` in another
 * process takes `!text` (a steer that cuts the answer being streamed) and shows each call the
 * owner starts with its id, which `/cancel-tool ID` cancels.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { build } from 'esbuild'
import { filter, firstValueFrom } from 'rxjs'
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest'
import { liveChannel } from '../../src/postgres/channels.js'
import { connectSessions, migrate } from '../../src/postgres.js'
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
    join(import.meta.dirname, '..', 'support', 'children', 'interruptWorkerChild.ts'),
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

it('R68, R71, R72: in attach, !text cuts the answer the owner streams, and /cancel-tool ID cancels the call shown running', async () => {
  const worker = workers.start({ DATABASE_URL: db.url })
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
    await line(attached, /^✓ steered into 1\.1 · stop now$/)
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
