/**
 * One run of the cluster test (R57, R52, R54, R55): worker processes serve the sessions while
 * client processes send a seeded random mix into them; every `killEveryMs` the worker with the
 * most model requests and tool runs in flight is SIGKILLed (mid-turn) and a new one started. Once
 * the clients are done, the harness sends one closing followup into every session (so every
 * session is opened again after the kills and its last turn runs to the end), waits until every
 * id is delivered or settled and the workers are quiet, and stops them. The checks read the
 * database afterwards (checkCluster.ts).
 */
import type pg from 'pg'
import type { AgentMessageId } from '../../../../src/index.js'
import { connectSessions } from '../../../../src/postgres.js'
import { bundleChild, type ChildProgram } from '../../../support/bundleChild.js'
import type { Child } from '../../../support/childProcesses.js'
import type { OperationRecord } from './operations.js'
import { settledIds } from './readCluster.js'

export type ClusterOptions = {
  /** The database's URL, for the child processes. */
  readonly url: string
  /** A pool on it, for the closing followups and the waiting. */
  readonly pool: pg.Pool
  readonly seed: number
  /** Session ids are `${prefix}-0` … */
  readonly prefix: string
  readonly sessions: number
  readonly workers: number
  readonly clients: number
  /** Operations each client makes, `paceMs` apart on average. */
  readonly operations: number
  readonly paceMs: number
  readonly killEveryMs: number
  /** The workers' shortest model answer (a turn is two requests and a tool run of about this). */
  readonly stepMs: number
  /** How long the ids may take to settle once the clients are done. */
  readonly settleMs: number
  readonly log?: (line: string) => void
}

export type ClusterRun = {
  readonly sessionIds: readonly string[]
  /** Every operation of every client, then the closing followups (client -1). */
  readonly records: readonly OperationRecord[]
  readonly kills: number
  /** Kills of a worker that had a model request or tool run in flight. */
  readonly killsMidTurn: number
  /** The turns whose model request or tool run was in flight in a killed worker, and when. */
  readonly cuts: readonly { readonly session: string; readonly turn: number; readonly killedAt: number }[]
  /** Clients that did not finish, and the workers' errors other than timeouts, each once with a count. */
  readonly problems: readonly string[]
  /**
   * How many times a worker reported a database operation that timed out (R59: a typed error,
   * never a hang). A worker carries on after one; on a loaded machine a scan can wait that long
   * for a connection of its pool, so these are counted, not violations.
   */
  readonly timeouts: number
}

export type ClusterPrograms = { readonly worker: ChildProgram; readonly client: ChildProgram }

/** Each child's deadline: a worker lives for a whole round of the soak. */
const CHILD_DEADLINE_MS = 600_000

export const bundleClusterPrograms = async (): Promise<ClusterPrograms> => ({
  worker: await bundleChild('workerChild', { deadlineMs: CHILD_DEADLINE_MS }),
  client: await bundleChild('clientChild', { deadlineMs: CHILD_DEADLINE_MS }),
})

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
/** The `<session> <turn>` a child has started and not ended (`start …`/`end …` lines). */
const inFlight = (child: Child): { session: string; turn: number }[] => {
  const open = new Map<string, number>()
  for (const line of child.lines) {
    const match = /^(start|end) (\S+ \d+)$/.exec(line)
    if (match) open.set(match[2]!, (open.get(match[2]!) ?? 0) + (match[1] === 'start' ? 1 : -1))
  }
  return [...open].flatMap(([key, n]) => {
    const [session = '', turn = '0'] = key.split(' ')
    return n > 0 ? [{ session, turn: Number(turn) }] : []
  })
}

/** The number in a child's last line `<word> <n>`, or 0. */
const lastCount = (child: Child, word: string): number => {
  for (let i = child.lines.length - 1; i >= 0; i--) {
    const match = new RegExp(`^${word} (\\d+)$`).exec(child.lines[i] ?? '')
    if (match) return Number(match[1])
  }
  return 0
}

export const runCluster = async (programs: ClusterPrograms, options: ClusterOptions): Promise<ClusterRun> => {
  const log = options.log ?? (() => undefined)
  const sessionIds = Array.from({ length: options.sessions }, (_, i) => `${options.prefix}-${i}`)
  const startWorker = async (): Promise<Child> => {
    const child = programs.worker.start({
      env: {
        DATABASE_URL: options.url,
        CONCURRENCY: '10',
        POOL_MAX: '14',
        TURN: 'tool',
        STEP_MS: String(options.stepMs),
      },
    })
    await child.line(/^ready$/)
    return child
  }
  const problems: string[] = []
  const retired: Child[] = []
  let workers = await Promise.all(Array.from({ length: options.workers }, startWorker))
  // Each session gets the sends of two clients, so their rows interleave in its journal.
  const clients = Array.from({ length: options.clients }, (_, c) =>
    programs.client.start({
      env: {
        DATABASE_URL: options.url,
        CLIENT: String(c),
        SESSIONS: sessionIds
          .filter((_, s) => s % options.clients === c || (s + 1) % options.clients === c)
          .join(','),
        SEED: String((options.seed + c * 7_919) >>> 0),
        OPS: String(options.operations),
        PACE_MS: String(options.paceMs),
      },
    }),
  )
  let clientsDone = false
  const finished = Promise.all(clients.map((c) => c.exit)).then(() => {
    clientsDone = true
  })

  let kills = 0
  let killsMidTurn = 0
  const cuts: { session: string; turn: number; killedAt: number }[] = []
  while (!clientsDone) {
    await Promise.race([sleep(options.killEveryMs), finished])
    if (clientsDone) break
    // A victim that is driving something: wait up to a second for a line that says one is mid-turn.
    const busiest = () => {
      const worker = [...workers].sort((a, b) => lastCount(b, 'busy') - lastCount(a, 'busy'))[0]
      return worker && lastCount(worker, 'busy') > 0 ? worker : undefined
    }
    const victim =
      busiest() ??
      (await Promise.any(workers.map((w) => w.waitFor('a busy worker', busiest, { withinMs: 1_000 }))).catch(
        () => workers[0]!,
      ))
    const killedAt = Date.now()
    victim.signal('SIGKILL')
    await victim.exit
    kills++
    const cut = inFlight(victim)
    if (cut.length > 0) killsMidTurn++
    cuts.push(...cut.map((c) => ({ ...c, killedAt })))
    log(`kill ${kills}: worker ${victim.pid} mid-turn in ${cut.map((c) => `${c.session} turn ${c.turn}`)}`)
    retired.push(victim)
    workers = [...workers.filter((w) => w !== victim), await startWorker()]
  }

  const records: OperationRecord[] = clients.flatMap((c) =>
    c.lines.filter((l) => l.startsWith('op ')).map((l) => JSON.parse(l.slice(3)) as OperationRecord),
  )
  for (const [i, c] of clients.entries())
    if (!c.lines.includes('done')) problems.push(`client ${i} did not finish: ${(await c.exit).stderr}`)
  log(`clients done: ${records.length} operations`)

  const closer = connectSessions(options.pool)
  try {
    const closing = await Promise.all(
      sessionIds.map(async (session, n): Promise<OperationRecord> => {
        const text = `closing:${n}`
        const id = await closer.session(session).followup(text)
        return { client: -1, n, session, kind: 'closing', effect: 'send', text, id }
      }),
    )
    records.push(...closing)
  } finally {
    await closer.close()
  }
  await waitForSettled(options, records, log)
  await waitForQuiet(workers)
  // Each distinct error once, with how often the workers reported it.
  const errors = new Map<string, number>()
  let timeouts = 0
  for (const worker of [...retired, ...workers])
    for (const line of worker.lines) {
      if (/^error DatabaseTimeoutError: /.test(line)) timeouts++
      else if (line.startsWith('error ')) errors.set(line, (errors.get(line) ?? 0) + 1)
    }
  for (const [line, n] of errors) problems.push(`workers: ${line} (${n} times)`)
  await Promise.all(workers.map((worker) => worker.kill()))
  return { sessionIds, records, kills, killsMidTurn, cuts, problems, timeouts }
}

/** Until every id a send returned is carried by an event or settled in the journal. */
const waitForSettled = async (
  options: ClusterOptions,
  records: readonly OperationRecord[],
  log: (line: string) => void,
): Promise<void> => {
  const ids = records.flatMap((r) => (r.id ? [r.id] : []))
  const deadline = Date.now() + options.settleMs
  for (;;) {
    const settled = await settledIds(options.pool, options.prefix)
    const waiting = ids.filter((id: AgentMessageId) => !settled.has(id))
    if (waiting.length === 0) return log(`all ${ids.length} ids delivered or settled`)
    // The checks report what is still waiting.
    if (Date.now() > deadline) return log(`${waiting.length} ids still waiting after ${options.settleMs} ms`)
    await sleep(250)
  }
}

/** Until no worker drives a session or runs anything, twice in a row. */
const waitForQuiet = async (workers: readonly Child[]): Promise<void> => {
  let quietChecks = 0
  for (let tries = 0; tries < 100 && quietChecks < 2; tries++) {
    await sleep(150)
    const quiet = workers.every((w) => lastCount(w, 'driving') === 0 && lastCount(w, 'busy') === 0)
    quietChecks = quiet ? quietChecks + 1 : 0
  }
}
