/**
 * R65 and V9 across real processes: worker processes drive sessions whose tool needs approval,
 * client processes decide. A decision from another process is applied by the worker that owns
 * the session, or, once that worker was SIGKILLed while the session was paused, by another worker
 * that takes the session because the decision waits and reopens it paused. The call runs exactly
 * once; a decision on an id that is not pending is refused without harming the owner.
 */
import { afterAll, beforeAll, expect, it } from 'vitest'
import { sessionsWithWork } from '../../../src/postgres/worker/sessionsWithWork.js'
import { connectSessions, migrate } from '../../../src/postgres.js'
import { bundleChild, type ChildProgram } from '../../support/bundleChild.js'
import type { Child } from '../../support/childProcesses.js'
import { committedEvents, until } from '../../support/postgresOwner.js'
import { createTestDatabase, type TestDatabase } from '../../support/testDatabase.js'

let db: TestDatabase
let workers: ChildProgram
let approvers: ChildProgram
beforeAll(async () => {
  db = await createTestDatabase()
  await migrate(db.pool)
  workers = await bundleChild('approvalWorkerChild', { deadlineMs: 180_000 })
  approvers = await bundleChild('approverChild', { deadlineMs: 120_000 })
}, 120_000)
afterAll(async () => {
  workers.remove()
  approvers.remove()
  await db.drop()
})

const startWorker = async (): Promise<Child> => {
  const child = workers.start({ env: { DATABASE_URL: db.url } })
  await child.line(/^ready$/)
  return child
}

/** A client process's decision on `call`; resolves with what it printed about it. */
const decide = async (session: string, call: string, options: { wait?: boolean; deny?: boolean } = {}) => {
  const child = approvers.start({
    env: {
      DATABASE_URL: db.url,
      SESSION: session,
      CALL: call,
      DECISION: options.deny ? 'deny' : 'approve',
      WAIT: options.wait ? 'pending' : '',
    },
  })
  return child.line(/^(decided|refused .*|failed .*)$/)
}

const executions = (worker: Child, session: string) =>
  worker.lines.filter((line) => line === `execute ${session} deploy-1`).length

const turnEnded = async (session: string): Promise<boolean> =>
  (await committedEvents(db.pool, session)).at(-1)?.type === 'turn/end'

const count = async (session: string, type: string) =>
  (await committedEvents(db.pool, session)).filter((e) => e.type === type).length

it('R65, V9: a client process approves while a worker process owns the session; the call runs once and the turn completes', async () => {
  const worker = await startWorker()
  const client = connectSessions(db.pool, { pollMs: 100 })
  try {
    await client.session('approved-by-a-process').followup('deploy it')
    expect(await decide('approved-by-a-process', 'deploy-1', { wait: true })).toBe('decided')
    await until(() => turnEnded('approved-by-a-process'), 'the end of the turn')
    const events = await committedEvents(db.pool, 'approved-by-a-process')
    expect(events.at(-1)?.data).toEqual({ turn: 1, reason: { kind: 'completed' } })
    expect(events.find((e) => e.type === 'approval/decision')?.data).toMatchObject({
      callId: 'deploy-1',
      decision: 'approved',
      source: { kind: 'user' },
    })
    expect(await count('approved-by-a-process', 'tool/result')).toBe(1)
    expect(executions(worker, 'approved-by-a-process')).toBe(1)
    expect(worker.lines.filter((line) => line.startsWith('error '))).toEqual([])
  } finally {
    await client.close()
  }
}, 120_000)

it('R65, R54, V9: a worker SIGKILLed while its session is paused; a decision made afterwards wakes another worker, which reopens the session paused and finishes it', async () => {
  const first = await startWorker()
  const client = connectSessions(db.pool, { pollMs: 100 })
  const session = 'paused-when-killed'
  try {
    await client.session(session).followup('deploy it')
    await until(async () => (await count(session, 'approval/request')) === 1, 'the pause')
    first.signal('SIGKILL')
    await first.exit
    const second = await startWorker()
    // Paused, nobody deciding: no waiting work for a worker until the decision comes.
    const work = async () =>
      (await sessionsWithWork((text, values) => db.pool.query(text, values), 100)).some(
        (s) => s.id === session,
      )
    expect(await work()).toBe(false)

    expect(await decide(session, 'deploy-1', { wait: true })).toBe('decided')
    await until(() => turnEnded(session), 'the end of the turn')
    expect(second.lines).toContain(`drive ${session}`)
    const events = await committedEvents(db.pool, session)
    // One turn, never closed as interrupted: reopened paused, then continued.
    expect(events.filter((e) => e.type === 'turn/end').map((e) => e.data)).toEqual([
      { turn: 1, reason: { kind: 'completed' } },
    ])
    expect(await count(session, 'approval/request')).toBe(1)
    expect(await count(session, 'approval/decision')).toBe(1)
    expect(await count(session, 'tool/result')).toBe(1)
    expect(executions(first, session) + executions(second, session)).toBe(1)
    expect(executions(second, session)).toBe(1)
    // Fencing (R54): along seq, the writers' epochs never go down.
    const { rows } = await db.pool.query(
      'SELECT epoch FROM steerable_events WHERE session_id = $1 ORDER BY seq',
      [session],
    )
    const epochs = rows.map((row) => Number(row.epoch))
    expect(epochs).toEqual([...epochs].sort((a, b) => a - b))
    expect(new Set(epochs).size).toBe(2)
  } finally {
    await client.close()
  }
}, 180_000)

it('R65: a decision on an id that is not pending, from a client process, is refused (ApprovalNotPendingError) and the owning worker goes on', async () => {
  const worker = await startWorker()
  const client = connectSessions(db.pool, { pollMs: 100 })
  const session = 'unknown-call-refused'
  try {
    await client.session(session).followup('deploy it')
    await until(async () => (await count(session, 'approval/request')) === 1, 'the pause')
    expect(await decide(session, 'no-such-call')).toBe('refused ApprovalNotPendingError')
    expect(await decide(session, 'deploy-1', { deny: true })).toBe('decided')
    await until(() => turnEnded(session), 'the end of the turn')
    const result = (await committedEvents(db.pool, session)).find((e) => e.type === 'tool/result')
    expect(result?.data).toMatchObject({ result: { toolCallId: 'deploy-1', code: 'DENIED' } })
    expect(JSON.stringify(result)).toContain('from a client')
    expect(executions(worker, session)).toBe(0)
    expect(worker.lines.filter((line) => line.startsWith('error '))).toEqual([])
    // The refusal is recorded under the request, and changed nothing else.
    expect(await decide(session, 'deploy-1')).toBe('refused ApprovalNotPendingError')
  } finally {
    await client.close()
  }
}, 120_000)
