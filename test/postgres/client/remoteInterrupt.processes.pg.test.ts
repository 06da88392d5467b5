/**
 * R68, R71 and R72 across real processes: a worker process owns the session; this process, a
 * client, follows its live events, steers into the answer the worker's model streams (the step is
 * cut there), then cancels the tool call it sees start (the tool's signal aborts in the worker,
 * the turn goes on).
 */
import { filter, firstValueFrom } from 'rxjs'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { liveChannel } from '../../../src/postgres/channels.js'
import { connectSessions, migrate, type RemoteAgentEvent } from '../../../src/postgres.js'
import { bundleChild, type ChildProgram } from '../../support/bundleChild.js'
import { committedEvents, until } from '../../support/postgresOwner.js'
import { createTestDatabase, type TestDatabase } from '../../support/testDatabase.js'

let db: TestDatabase
let workers: ChildProgram
beforeAll(async () => {
  db = await createTestDatabase()
  await migrate(db.pool)
  workers = await bundleChild('interruptWorkerChild', { deadlineMs: 120_000 })
}, 120_000)
afterAll(async () => {
  workers.remove()
  await db.drop()
})

const turnsEnded = async (session: string): Promise<number> =>
  (await committedEvents(db.pool, session)).filter((e) => e.type === 'turn/end').length

it('R68, R71, R72: a client cuts the answer a worker process streams, then cancels the tool call it sees start there', async () => {
  const worker = workers.start({ env: { DATABASE_URL: db.url } })
  await worker.line(/^ready$/)
  const session = 'interrupted-in-a-worker'
  const client = connectSessions(db.pool, { pollMs: 100 })
  const remote = client.session(session)
  const seen: RemoteAgentEvent[] = []
  const following = remote.events$.subscribe((event) => seen.push(event))
  try {
    await until(async () => {
      const { rows } = await db.pool.query(
        'SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND query = $1',
        [`LISTEN ${liveChannel(session)}`],
      )
      return rows[0]?.n === 1
    }, 'the LISTEN')
    const delta = firstValueFrom(remote.events$.pipe(filter((e) => e.type === 'agent/stream/delta')))
    await remote.followup('stream')
    expect(await delta).toMatchObject({ text: 'partial ', turn: 1, step: 1 })
    // The worker's model never finishes this step by itself: only the steer ends it.
    const steer = await remote.steer('stop', { interrupt: true })
    expect(await remote.outcome(steer)).toMatchObject({
      kind: 'delivered',
      interrupted: { turn: 1, step: 1 },
    })
    await until(async () => (await turnsEnded(session)) === 1, 'the end of turn 1')
    const first = await committedEvents(db.pool, session)
    expect(first.flatMap((e) => (e.type === 'assistant/message' ? [e.data] : []))).toMatchObject([
      { turn: 1, step: 1, content: [{ type: 'text', text: 'partial ' }], interrupted: true },
      { turn: 1, step: 2, content: [{ type: 'text', text: 'ok' }] },
    ])

    await remote.followup('tool')
    await until(
      () => seen.some((e) => e.type === 'agent/tool/start' && e.callId === 'slow-2'),
      'the start of slow-2, live',
    )
    expect(await remote.cancelToolCall('slow-2', { reason: 'enough' })).toBe(true)
    await worker.line(new RegExp(`^aborted ${session} slow-2$`))
    await until(async () => (await turnsEnded(session)) === 2, 'the end of turn 2')
    const events = await committedEvents(db.pool, session)
    const result = events.find((e) => e.type === 'tool/result')
    expect(result?.data).toMatchObject({ turn: 2, result: { toolCallId: 'slow-2', code: 'CANCELLED' } })
    expect(JSON.stringify(result)).toContain('enough')
    expect(events.at(-1)?.data).toEqual({ turn: 2, reason: { kind: 'completed' } })
    await until(
      () => seen.some((e) => e.type === 'agent/tool/end' && e.callId === 'slow-2'),
      'the end of slow-2, live',
    )
    expect(seen.find((e) => e.type === 'agent/tool/end')).toMatchObject({ isError: true, code: 'CANCELLED' })
    // Settled: a second cancel is false, and the worker is unharmed.
    expect(await remote.cancelToolCall('slow-2')).toBe(false)
    expect(worker.lines.filter((line) => line.startsWith('error '))).toEqual([])
  } finally {
    following.unsubscribe()
    await client.close()
  }
}, 120_000)
