/**
 * Every check of one cluster run (checkDeliveries.ts, checkSessions.ts), and the counts that show
 * it did something: sends by kind, how ids were delivered or settled, kills, cut turns, epochs.
 */
import type pg from 'pg'
import type { AgentMessageId } from '../../../../src/index.js'
import { checkDeliveries } from './checkDeliveries.js'
import { checkFencing, checkOutcomes, checkReplay, countCutTurns } from './checkSessions.js'
import { readCluster } from './readCluster.js'
import type { ClusterRun } from './runCluster.js'

export type ClusterCounts = {
  /** Operations by kind (the closing followups included). */
  readonly operations: Record<string, number>
  readonly delivered: { readonly prompt: number; readonly steering: number; readonly context: number }
  /** Settlements in the journal by kind: discarded, refused, blocked. */
  readonly settled: Record<string, number>
  readonly kills: number
  readonly killsMidTurn: number
  /** Turns a kill cut off that a later owner ran to their end (committed after the kill). */
  readonly cutTurns: number
  /** Database operations of the workers that timed out (see `ClusterRun.timeouts`). */
  readonly timeouts: number
  readonly sessions: number
  /** Leases taken, summed over the sessions (each session's fencing counter). */
  readonly epochs: number
  readonly events: number
}

export type ClusterReport = { readonly violations: readonly string[]; readonly counts: ClusterCounts }

export const checkCluster = async (
  pool: pg.Pool,
  prefix: string,
  run: ClusterRun,
): Promise<ClusterReport> => {
  const sessions = await readCluster(pool, prefix)
  const violations: string[] = []
  for (const id of run.sessionIds)
    if (!sessions.has(id)) violations.push(`${id}: no row in steerable_sessions`)
  const failed = run.records.filter((r) => r.error !== undefined)
  for (const r of failed)
    violations.push(`client ${r.client} ${r.kind} #${r.n} into ${r.session} failed: ${r.error}`)

  const { fates, violations: deliveries } = checkDeliveries(sessions, run.records)
  violations.push(...deliveries)
  for (const rows of sessions.values()) {
    violations.push(...checkFencing(rows))
    violations.push(...(await checkReplay(pool, rows)))
  }
  const sessionOf = new Map<AgentMessageId, string>(
    run.records.flatMap((r) => (r.id ? [[r.id, r.session]] : [])),
  )
  violations.push(...(await checkOutcomes(pool, fates, sessionOf)))
  // Last, so that the checks' own findings come first in a long list.
  violations.push(...run.problems)

  const operations: Record<string, number> = {}
  for (const r of run.records) operations[r.kind] = (operations[r.kind] ?? 0) + 1
  const delivered = { prompt: 0, steering: 0, context: 0 }
  const settled: Record<string, number> = {}
  for (const fate of fates.values()) {
    if (fate.kind === 'delivered') delivered[fate.as]++
    else settled[fate.outcome.kind] = (settled[fate.outcome.kind] ?? 0) + 1
  }
  const counts: ClusterCounts = {
    operations,
    delivered,
    settled,
    kills: run.kills,
    killsMidTurn: run.killsMidTurn,
    cutTurns: countCutTurns(sessions, run.cuts),
    timeouts: run.timeouts,
    sessions: sessions.size,
    epochs: [...sessions.values()].reduce((sum, s) => sum + s.epoch, 0),
    events: [...sessions.values()].reduce((sum, s) => sum + s.events.length, 0),
  }
  return { violations, counts }
}

/** The counts on a few lines, for a log or a failure message. */
export const formatCounts = (counts: ClusterCounts): string =>
  [
    `operations: ${Object.entries(counts.operations)
      .map(([kind, n]) => `${kind} ${n}`)
      .join(', ')}`,
    `delivered: prompt ${counts.delivered.prompt}, steering ${counts.delivered.steering}, context ${counts.delivered.context}`,
    `settled: ${['discarded', 'refused', 'blocked', ...Object.keys(counts.settled)]
      .filter((kind, i, all) => all.indexOf(kind) === i)
      .map((kind) => `${kind} ${counts.settled[kind] ?? 0}`)
      .join(', ')}`,
    `kills: ${counts.kills} (${counts.killsMidTurn} mid-turn), turns cut off: ${counts.cutTurns}, worker timeouts: ${counts.timeouts}`,
    `sessions: ${counts.sessions}, epochs: ${counts.epochs}, events: ${counts.events}`,
  ].join('\n')
