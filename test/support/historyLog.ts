import { filter, first, firstValueFrom, Subject } from 'rxjs'
import { z } from 'zod'
import type { Message } from '../../src/contracts/messages.js'
import type { ModelEvent, ModelRequest } from '../../src/contracts/model.js'
import { type Agent, createAgent, defineTool, type SessionEvent } from '../../src/index.js'
import { rmCall, rmTool } from './timelineRuns.js'

const text = (t: string): ModelEvent => ({ type: 'text', text: t })
const stop: ModelEvent = { type: 'finish', reason: 'stop' }
const said = (messages: readonly Message[]) => {
  const last = messages.at(-1)
  const block = last?.content[0]
  return last?.role === 'user' && block?.type === 'text' ? block.text : ''
}

/** A tool that runs until it is cancelled. */
const wait = defineTool({
  name: 'wait',
  description: 'Waits until cancelled.',
  parameters: z.object({}),
  execute: (_args, ctx) =>
    new Promise<string>((resolve) => ctx.signal.addEventListener('abort', () => resolve('stopped'))),
})

/**
 * A model that answers `re:<prompt>`, except: `slow` streams what `slow$` sends (a test cuts it
 * with an interrupting steer), `wait` calls the `wait` tool, `rm` calls `rm` (it needs approval).
 */
const historyModel = (slow$: Subject<ModelEvent>) => (request: ModelRequest) => {
  const prompt = said(request.messages)
  if (prompt === 'slow') return slow$
  if (prompt === 'wait' || prompt === 'rm') {
    const call = prompt === 'wait' ? { id: 'c-wait', name: 'wait', arguments: '{}' } : rmCall('c-rm', 'x')
    return [
      { type: 'tool-call', ...call },
      { type: 'finish', reason: 'tool-calls' },
    ] as ModelEvent[]
  }
  return [text(request.messages.at(-1)?.role === 'tool' ? 'done' : `re:${prompt}`), stop]
}

const agentOn = (history?: readonly SessionEvent[]) => {
  const slow$ = new Subject<ModelEvent>()
  const agent = createAgent({
    model: historyModel(slow$),
    tools: [wait, rmTool],
    ...(history ? { history } : {}),
  })
  return { agent, slow$ }
}

/** The next `type` event appended (the transcript replays what it holds first). */
const next = (agent: Agent, type: SessionEvent['type']) => {
  const from = agent.session.events.length
  return firstValueFrom(agent.transcript$.pipe(first((e) => e.type === type && e.seq > from)))
}

/** Turn `slow`: its answer is cut by an interrupting steer after one streamed word (R68). */
const cutTurn = async (agent: Agent, slow$: Subject<ModelEvent>) => {
  const started = next(agent, 'step/start')
  agent.followup('slow')
  await started
  const streamed = firstValueFrom(agent.events$.pipe(filter((e) => e.type === 'agent/stream/delta')))
  slow$.next(text('Once '))
  await streamed
  agent.steer('shorter', { interrupt: true })
  await agent.whenIdle()
}

/** Turn `wait`: its call is cancelled while it runs (R71). */
const cancelledCallTurn = async (agent: Agent) => {
  const running = firstValueFrom(agent.events$.pipe(filter((e) => e.type === 'agent/tool/start')))
  agent.followup('wait')
  await running
  agent.cancelToolCall('c-wait')
  await agent.whenIdle()
}

/** Turn `rm`: its call waits for approval and is approved (R61). */
const approvedTurn = async (agent: Agent) => {
  const paused = firstValueFrom(agent.status$.pipe(filter((s) => s === 'paused')))
  agent.followup('rm')
  await paused
  agent.approve('c-rm')
  await agent.whenIdle()
}

/** The summary a `historyLog` compaction writes. */
export const SUMMARY = 'We said one, were cut short, cancelled a wait and removed x.'

/**
 * A session log with every kind of durable event, made by real agents: session `from` runs turn 1
 * (`one`), turn 2 (cut by an interrupting steer), turn 3 (a cancelled call) and turn 4 (an
 * approved call). It is forked after turn 4 (`fork {from, atTurn: 4}` after the copied events,
 * their seqs kept, as R78 copies them), the fork runs turn 5 (`five`), then a `compaction` keeps
 * turn 5 and replaces the rest with `SUMMARY`, then turn 6 (`six`) runs and `rollback(1)` undoes
 * it. The compaction is appended as R74 writes one: between turns, at the log's end.
 */
export const historyLog = async (): Promise<{ events: readonly SessionEvent[]; from: string }> => {
  const original = agentOn()
  original.agent.followup('one')
  await original.agent.whenIdle()
  await cutTurn(original.agent, original.slow$)
  await cancelledCallTurn(original.agent)
  await approvedTurn(original.agent)
  const from = original.agent.id
  const copied = original.agent.session.events
  await original.agent.dispose()

  const fork: SessionEvent = { seq: copied.length + 1, type: 'fork', data: { from, atTurn: 4 } }
  const forked = agentOn([...copied, fork])
  forked.agent.followup('five')
  await forked.agent.whenIdle()
  const before = forked.agent.session.events
  await forked.agent.dispose()

  const kept = before.find((e) => e.type === 'turn/start' && e.data.turn === 5)!
  const compaction: SessionEvent = {
    seq: before.length + 1,
    type: 'compaction',
    data: { upToSeq: before.length, keptFromSeq: kept.seq, summary: [{ type: 'text', text: SUMMARY }] },
  }
  const compacted = agentOn([...before, compaction])
  compacted.agent.followup('six')
  await compacted.agent.whenIdle()
  compacted.agent.rollback(1)
  const events = compacted.agent.session.events
  await compacted.agent.dispose()
  return { events, from }
}
