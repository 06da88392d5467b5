/**
 * R51: a session opened again rebuilds its inbox from the store's journal: what waited waits again
 * (id, content, source, placement, order), what the transcript holds is not restored, guarded
 * steering expires, context with no steering is appended, waking items wake after createAgent
 * returns, and outcome() answers for restored and settled ids.
 */
import { describe, expect, it } from 'vitest'
import {
  type AgentEvent,
  type AgentMessageId,
  inboxConservation,
  type SessionEvent,
} from '../../src/index.js'
import { delay, gate, PARKED, setup, texts } from '../support/agents.js'
import { journalStore } from '../support/journalStore.js'

const until = async (done: () => boolean) => {
  for (let i = 0; i < 200 && !done(); i++) await delay(5)
  expect(done()).toBe(true)
}
const labels = (events: readonly SessionEvent[]) =>
  events.map((e) => {
    if (e.type === 'user/message' || e.type === 'steering/message') {
      const block = e.data.content[0]
      return `${e.type === 'user/message' ? 'user' : 'steering'}(${block?.type === 'text' ? block.text : '?'})`
    }
    if (e.type === 'turn/end') return `turn/end(${e.data.reason.kind})`
    return e.type
  })
const inboxTexts = (agent: ReturnType<typeof setup>['agent']) => ({
  queue: agent.inbox.queue.map((i) => `${texts([i.message])[0]}:${i.placement}`),
  outbox: agent.inbox.outbox.map((i) => `${texts([i.message])[0]}:${i.placement}`),
})

/** An agent whose first turn holds in its model request, with more sends waiting behind it. */
const crashedMidTurn = async (more: (agent: ReturnType<typeof setup>['agent']) => void) => {
  const js = journalStore()
  const g = gate()
  const first = setup([g.reply], { store: js.open() })
  const f1 = first.agent.followup('first')
  await until(() => first.model.requests.length === 1)
  more(first.agent)
  await first.agent.session.flush()
  js.crash()
  return { js, f1 }
}

describe('R51: resume rebuilds the inbox', () => {
  it('R51: queued, parked, steering and context wait again, in order, with their ids; no enqueue', async () => {
    const ids: AgentMessageId[] = []
    const { js, f1 } = await crashedMidTurn((a) => {
      ids.push(a.followup('second'), a.send('parked', PARKED), a.steer('fix'), a.inject('fact'))
    })
    const live: AgentEvent[] = []
    const next = setup(['answer'], { store: js.open() })
    next.agent.events$.subscribe((e) => live.push(e))
    expect(inboxTexts(next.agent)).toStrictEqual({
      queue: ['second:queued', 'parked:parked'],
      outbox: ['fix:steering', 'fact:context'],
    })
    expect([...next.agent.inbox.queue, ...next.agent.inbox.outbox].map((i) => i.message.id)).toStrictEqual(
      ids,
    )
    // R6: nothing ran yet; the wake comes after createAgent returned.
    expect(next.agent.status).toBe('idle')
    expect(labels(next.agent.session.events).slice(-1)).toStrictEqual(['turn/end(aborted)'])
    const errors: unknown[] = []
    next.agent.events$.pipe(inboxConservation({ initial: next.agent.inbox })).subscribe({
      error: (e) => errors.push(e),
    })
    await next.agent.whenIdle()
    expect(next.model.requests).toHaveLength(1)
    expect(labels(next.agent.session.events).slice(-8)).toStrictEqual([
      'turn/start',
      'steering(fix)',
      'user(fact)',
      'user(second)',
      'step/start',
      'assistant/message',
      'step/end',
      'turn/end(completed)',
    ])
    expect(live.filter((e) => e.type === 'agent/inbox/enqueue')).toStrictEqual([])
    expect(errors).toStrictEqual([])
    expect(await next.agent.outcome(f1)).toMatchObject({ kind: 'delivered', as: 'prompt', turn: 1 })
    expect(await next.agent.outcome(ids[0] as AgentMessageId)).toMatchObject({ kind: 'delivered', turn: 2 })
    expect(inboxTexts(next.agent)).toStrictEqual({ queue: ['parked:parked'], outbox: [] })
    await next.agent.dispose()
  })

  it('R51, R49: guarded steering expires on resume, and the expiry is journaled', async () => {
    let guarded = '' as AgentMessageId
    const { js } = await crashedMidTurn((a) => {
      guarded = a.steer('only turn 1', { turn: 1 })
    })
    const next = setup([], { store: js.open() })
    expect(next.agent.inbox.outbox).toStrictEqual([])
    expect(await next.agent.outcome(guarded)).toStrictEqual({ kind: 'discarded', reason: 'expired' })
    await next.agent.session.flush()
    expect(js.durable.records.at(-1)).toStrictEqual({
      op: 'settle',
      id: guarded,
      outcome: { kind: 'discarded', reason: 'expired' },
    })
    await next.agent.dispose()
  })

  it('R51, V1: context staged for the interrupted turn, with no steering, is appended after its turn/end', async () => {
    const { js } = await crashedMidTurn((a) => {
      a.inject('fact')
    })
    const next = setup([], { store: js.open() })
    expect(labels(next.agent.session.events).slice(-2)).toStrictEqual(['turn/end(aborted)', 'user(fact)'])
    expect(next.agent.inbox.outbox).toStrictEqual([])
    await next.agent.session.flush()
    expect(labels(js.durable.events).slice(-1)).toStrictEqual(['user(fact)'])
    await next.agent.dispose()
  })

  it('R51, R42: outcome() answers for ids settled before the crash', async () => {
    let removed = '' as AgentMessageId
    const { js } = await crashedMidTurn((a) => {
      removed = a.followup('gone')
      a.remove(removed)
    })
    const next = setup([], { store: js.open() })
    expect(await next.agent.outcome(removed)).toStrictEqual({ kind: 'discarded', reason: 'removed' })
    expect(next.agent.inbox.queue).toStrictEqual([])
    await next.agent.dispose()
  })

  it('R51, R45: a reordered queue comes back in its new order; a resumed agent journals on', async () => {
    const { js } = await crashedMidTurn((a) => {
      const [b] = [a.followup('b'), a.followup('c'), a.followup('d')]
      a.move(b, 2)
    })
    const store = js.open()
    const g = gate()
    const next = setup([g.reply, 'x', 'y'], { store })
    expect(inboxTexts(next.agent).queue).toStrictEqual(['c:queued', 'd:queued', 'b:queued'])
    await until(() => next.model.requests.length === 1)
    next.agent.move(next.agent.inbox.queue[1]?.message.id as AgentMessageId, 0)
    await next.agent.session.flush()
    js.crash()
    const third = setup([], { store: js.open() })
    expect(inboxTexts(third.agent).queue).toStrictEqual(['b:queued', 'd:queued'])
    await third.agent.dispose()
  })
})
