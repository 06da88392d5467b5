/**
 * The cluster test's checks on each session (R54, R37, R38, R51, R55), once the workers are
 * stopped: no two processes appended at once (along `seq` the writers' epochs never go down, in
 * the events and in the owners' journal rows; none is above the session's fencing counter);
 * every turn is closed; the session opens with `openPostgresSession` and an agent created on it
 * rebuilds `session.messages()` equal to a replay of the rows; and `outcome(id)` from a fresh
 * client agrees with what the tables show.
 */
import { isDeepStrictEqual } from 'node:util'
import type pg from 'pg'
import { EMPTY } from 'rxjs'
import { type AgentMessageId, createAgent, projectMessages } from '../../../../src/index.js'
import { connectSessions, openPostgresSession } from '../../../../src/postgres.js'
import type { Fate } from './checkDeliveries.js'
import type { SessionRows } from './readCluster.js'

/** Fencing, and every turn closed. */
export const checkFencing = (rows: SessionRows): string[] => {
  const violations: string[] = []
  const { id, events, journal } = rows
  events.forEach((row, i) => {
    if (row.seq !== i + 1) violations.push(`${id}: event ${i + 1} has seq ${row.seq}`)
    const before = events[i - 1]
    if (before && row.epoch < before.epoch)
      violations.push(`${id}: seq ${row.seq} written by epoch ${row.epoch} after epoch ${before.epoch}`)
    if (row.epoch > rows.epoch)
      violations.push(`${id}: seq ${row.seq} has epoch ${row.epoch} > ${rows.epoch}`)
  })
  const owned = journal.filter((r) => r.epoch !== null)
  owned.forEach((row, i) => {
    const before = owned[i - 1]
    if (before?.epoch && row.epoch !== null && row.epoch < before.epoch)
      violations.push(`${id}: journal row ${row.seq} by epoch ${row.epoch} after epoch ${before.epoch}`)
  })
  const open = new Set<number>()
  for (const { event } of events) {
    if (event.type === 'turn/start') open.add(event.data.turn)
    if (event.type === 'turn/end') open.delete(event.data.turn)
  }
  for (const turn of open) violations.push(`${id}: turn ${turn} never ended`)
  return violations
}

/**
 * How many of the turns a kill cut off (a model request or tool run of theirs in flight in the
 * killed worker) were run to their end by a later owner: their `turn/end` committed after the kill.
 */
export const countCutTurns = (
  sessions: ReadonlyMap<string, SessionRows>,
  cuts: readonly { readonly session: string; readonly turn: number; readonly killedAt: number }[],
): number =>
  cuts.filter(({ session, turn, killedAt }) =>
    sessions
      .get(session)
      ?.events.some(
        (r) => r.event.type === 'turn/end' && r.event.data.turn === turn && r.committedAt > killedAt,
      ),
  ).length

/** The session opened again: the store holds the rows, and an agent on it replays them (R37, R38). */
export const checkReplay = async (pool: pg.Pool, rows: SessionRows): Promise<string[]> => {
  const store = await openPostgresSession(pool, rows.id)
  const events = rows.events.map((r) => r.event)
  const violations: string[] = []
  if (!isDeepStrictEqual(store.load(), events))
    violations.push(`${rows.id}: the store does not load its rows`)
  // Nothing waits and every turn is closed, so the agent has nothing to do: its model is never asked.
  const agent = createAgent({ model: () => EMPTY, store })
  if (!isDeepStrictEqual(agent.session.messages(), projectMessages(events)))
    violations.push(`${rows.id}: session.messages() differs from a replay of its rows`)
  if (agent.session.events.length !== events.length)
    violations.push(`${rows.id}: opening appended ${agent.session.events.length - events.length} events`)
  if (agent.status !== 'idle') violations.push(`${rows.id}: the reopened agent is ${agent.status}`)
  return violations
}

/** `outcome(id)` from a client that sent nothing agrees with the tables (R55), `parallel` at a time. */
export const checkOutcomes = async (
  pool: pg.Pool,
  fates: ReadonlyMap<AgentMessageId, Fate>,
  sessionOf: ReadonlyMap<AgentMessageId, string>,
  parallel = 6,
): Promise<string[]> => {
  const client = connectSessions(pool, { pollMs: 200 })
  const violations: string[] = []
  const queue = [...fates]
  const check = async ([id, fate]: [AgentMessageId, Fate]): Promise<void> => {
    const session = sessionOf.get(id) ?? ''
    let stop = () => {}
    const outcome = await Promise.race([
      client.session(session).outcome(id),
      new Promise<undefined>((resolve) => {
        const timer = setTimeout(resolve, 20_000)
        stop = () => clearTimeout(timer)
      }),
    ]).finally(() => stop())
    const agrees =
      fate.kind === 'delivered'
        ? outcome?.kind === 'delivered' && outcome.as === fate.as && outcome.seq === fate.seq
        : outcome?.kind === fate.outcome.kind
    if (!agrees)
      violations.push(
        `${session} ${id}: outcome() says ${JSON.stringify(outcome)}, the tables ${JSON.stringify(fate)}`,
      )
  }
  try {
    await Promise.all(
      Array.from({ length: parallel }, async () => {
        for (let next = queue.shift(); next; next = queue.shift()) await check(next)
      }),
    )
  } finally {
    await client.close()
  }
  return violations
}
