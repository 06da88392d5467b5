/**
 * One process of an approvals run: an agent opened on the run's disk, its model and tools, and
 * what it was seen doing. The tools check V9 as they run: a call that needs approval finds an
 * `approved` decision for it in the process's transcript, or the run fails.
 */
import { type Observable, of } from 'rxjs'
import type { TestScheduler } from 'rxjs/testing'
import { z } from 'zod'
import {
  type Agent,
  type AgentEvent,
  type AgentMessageId,
  createAgent,
  defineTool,
  inboxConservation,
  type ModelEvent,
  type SessionEvent,
  statusAlternation,
} from '../../../src/index.js'
import { label } from '../../../src/testing.js'
import type { Disk } from './disk.js'
import { decisionKey, requestKeys } from './pendingInLog.js'
import type { CallPlan, Plan, ToolKind } from './plan.js'

/** Whether a call of `tool` numbered `n` needs approval (`maybe`'s predicate throws at n % 3 = 2). */
export const needsApproval = (tool: ToolKind, n: number): boolean =>
  tool === 'gate' || (tool === 'maybe' && n % 3 !== 0)

export type Process = {
  readonly index: number
  readonly agent: Agent
  readonly live: AgentEvent[]
  /** Durable events appended while this process ran. */
  readonly durable: SessionEvent[]
  /** Executions of calls that need approval, by call id. */
  readonly executed: Map<string, number>
  /** Decisions `approve()` and `deny()` accepted (they did not throw). */
  readonly accepted: {
    readonly key: string
    readonly k: string
    readonly decision: 'approved' | 'denied'
  }[]
  /** What its inbox held when it opened (R51): outstanding for R30 before any event. */
  readonly initial: readonly AgentMessageId[]
  /** The process died (`crash()`): what it had not flushed is lost. */
  crashed: boolean
}

/** What every process of a run shares: the disk, the model's replies, the problems found. */
export type Run = {
  readonly plan: Plan
  readonly scheduler: TestScheduler
  readonly disk: Disk
  readonly problems: string[]
  /** Live and durable labels of every process, for the report of a failing run. */
  readonly timeline: string[]
  /** The model requests answered so far (the next one takes reply `requests`). */
  requests: number
  /** Calls the reactions made so far: a top-level call during which one fired is not judged alone. */
  reacted: number
}

/** Whether the log approves the call whose tool argument `k` is this one, by its place (V9). */
const approved = (events: readonly SessionEvent[], k: string): boolean => {
  const key = requestKeys(events).get(k)
  return events.some(
    (e) => e.type === 'approval/decision' && decisionKey(e.data) === key && e.data.decision === 'approved',
  )
}

const toolsOf = (run: Run, process: () => Process) => {
  const parameters = z.object({ k: z.string(), n: z.number(), d: z.number() })
  const answer = (k: string, d: number): unknown =>
    d === 0 ? `ran ${k}` : run.scheduler.createColdObservable(`${'-'.repeat(d)}(r|)`, { r: `ran ${k}` })
  const tool = (name: ToolKind) =>
    defineTool({
      name,
      description: `a ${name} tool`,
      parameters,
      ...(name === 'gate' ? { needsApproval: true } : {}),
      ...(name === 'maybe'
        ? {
            needsApproval: ({ n }: { n: number }) => {
              if (n % 3 === 2) throw new Error('the predicate broke')
              return n % 3 === 1
            },
          }
        : {}),
      execute: ({ k, n, d }) => {
        const p = process()
        if (!needsApproval(name, n)) return answer(k, d)
        p.executed.set(k, (p.executed.get(k) ?? 0) + 1)
        if (!approved(p.agent.session.events, k))
          run.problems.push(`V9: ${k} ran in process ${p.index} with no approved decision before it`)
        return answer(k, d)
      },
    })
  return [tool('gate'), tool('maybe'), tool('plain')]
}

/** The model: reply `run.requests` of the plan, shared by every process; past the end, text. */
const modelOf = (run: Run) => (): Observable<ModelEvent> => {
  const index = run.requests++
  const reply = run.plan.replies[index]
  if (reply === undefined || reply.calls.length === 0) {
    const text: ModelEvent[] = [
      { type: 'text', text: `answer ${index + 1}` },
      { type: 'finish', reason: 'stop' },
    ]
    return reply === undefined ? of(...text) : cold(run, reply.gap, text)
  }
  const ids: string[] = []
  const calls = reply.calls.map((c: CallPlan, i): ModelEvent => {
    const k = `c${index + 1}.${i + 1}`
    const id = c.id === 'empty' ? '' : c.id === 'repeat' ? (ids[i - 1] ?? k) : k
    ids.push(id)
    return { type: 'tool-call', id, name: c.tool, arguments: JSON.stringify({ k, n: c.n, d: c.d }) }
  })
  return cold(run, reply.gap, [...calls, { type: 'finish', reason: 'tool-calls' }])
}

const cold = (run: Run, gap: number, events: readonly ModelEvent[]): Observable<ModelEvent> => {
  const values = Object.fromEntries(events.map((e, i) => [String.fromCharCode(97 + i), e]))
  const letters = Object.keys(values).join('')
  return run.scheduler.createColdObservable<ModelEvent>(`${'-'.repeat(gap)}(${letters}|)`, values)
}

/** Opens process `index` on the run's disk, watched from its creation. */
export const openProcess = (run: Run, index: number): Process => {
  let self: Process | undefined
  const agent = createAgent({
    model: modelOf(run),
    tools: toolsOf(run, () => self as Process),
    store: run.disk.open(),
    scheduler: run.scheduler,
    ...(run.plan.timeoutMs === null ? {} : { approvalTimeoutMs: run.plan.timeoutMs }),
  })
  const initial = [...agent.inbox.queue, ...agent.inbox.outbox]
    .filter((item) => item.placement !== 'context')
    .map((item) => item.message.id)
  const process: Process = {
    index,
    agent,
    live: [],
    durable: [],
    executed: new Map(),
    accepted: [],
    initial,
    crashed: false,
  }
  self = process
  const from = agent.session.events.length
  agent.events$.pipe(inboxConservation({ initial: agent.inbox }), statusAlternation()).subscribe({
    next: (event) => {
      process.live.push(event)
      if (event.type !== 'agent/stream/delta')
        run.timeline.push(`p${index} t=${run.scheduler.now()} ${label(event)}`)
    },
    error: (error: unknown) => run.problems.push(`process ${index}: ${String(error)}`),
  })
  agent.transcript$.subscribe((event) => {
    if (event.seq <= from) return
    process.durable.push(event)
    run.timeline.push(`p${index} t=${run.scheduler.now()} D ${label(event)}`)
  })
  return process
}
