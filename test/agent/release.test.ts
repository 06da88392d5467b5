/**
 * R57, the agent's side: releasing a session stops driving it without discarding anything. A
 * running turn ends as by a keepInbox cancel, what waits stays in the store's journal, and the
 * next owner's agent (opened on the same store) restores it and carries on. The seam is
 * library-internal (a worker of `steerable/postgres` uses it).
 */
import { describe, expect, it } from 'vitest'
import { AgentDisposedError, type AgentEvent } from '../../src/index.js'
import { extensionsOf } from '../../src/runtime/extensions.js'
import { deferred, gate, PARKED, setup, texts } from '../support/agents.js'
import { journalStore } from '../support/journalStore.js'

const waiting = (agent: ReturnType<typeof setup>['agent']) =>
  [...agent.inbox.queue, ...agent.inbox.outbox].map((i) => `${texts([i.message])[0]}:${i.placement}`)

describe('R57: release', () => {
  it('R57: a release during a turn discards nothing; the next owner restores what waited', async () => {
    const js = journalStore()
    const g = gate()
    const first = setup([g.reply], { store: js.open() })
    const live: AgentEvent[] = []
    first.agent.events$.subscribe((e) => live.push(e))
    first.agent.followup('first')
    await Promise.resolve()
    first.agent.followup('second')
    first.agent.send('parked', PARKED)
    first.agent.steer('fix')
    first.agent.inject('fact')
    await extensionsOf(first.agent).release()
    expect(live.filter((e) => e.type === 'agent/inbox/discard')).toStrictEqual([])
    expect(first.agent.session.events.at(-1)).toMatchObject({
      type: 'turn/end',
      data: { reason: { kind: 'disposed' } },
    })
    expect(() => first.agent.followup('late')).toThrow(AgentDisposedError)

    const next = setup(['answer'], { store: js.open() })
    expect(waiting(next.agent)).toStrictEqual([
      'second:queued',
      'parked:parked',
      'fix:steering',
      'fact:context',
    ])
    await next.agent.whenIdle()
    expect(texts(next.model.requests[0]?.messages ?? []).slice(-3)).toStrictEqual(['fix', 'fact', 'second'])
    await next.agent.dispose()
  })

  it('R57, R47: a release during an admission puts the claimed prompt back; the next owner runs it', async () => {
    const js = journalStore()
    const decided = deferred<undefined>()
    const first = setup([], { store: js.open(), hooks: { promptSubmit: () => decided.promise } })
    first.agent.followup('claimed')
    first.agent.followup('behind')
    await Promise.resolve()
    await extensionsOf(first.agent).release()
    const next = setup(['one', 'two'], { store: js.open() })
    expect(waiting(next.agent)).toStrictEqual(['claimed:queued', 'behind:queued'])
    await next.agent.whenIdle()
    expect(next.model.requests.map((r) => texts(r.messages).at(-1))).toStrictEqual(['claimed', 'behind'])
    await next.agent.dispose()
  })
})
