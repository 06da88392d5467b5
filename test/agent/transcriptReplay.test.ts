/**
 * `transcript$` replays the history, then goes on live, with no gap and no repeat, even when its
 * own subscriber appends events while the history is being replayed to it (an inject answered
 * from a replayed event, say): every seq arrives once, in order.
 */
import { takeWhile } from 'rxjs'
import { describe, expect, it } from 'vitest'
import type { SessionEvent } from '../../src/index.js'
import { createAgent } from '../../src/index.js'
import { scriptedModel } from '../../src/testing.js'

const seqs = (events: readonly SessionEvent[]) => events.map((e) => e.seq)
const oneToN = (n: number) => Array.from({ length: n }, (_, i) => i + 1)

describe('transcript$: replay, then live, with nothing lost', () => {
  it('an inject made by a subscriber while the history is replayed to it reaches that subscriber once, after the history', async () => {
    const agent = createAgent({ model: scriptedModel(['a1']) })
    agent.followup('q1')
    await agent.whenIdle()
    const history = agent.session.events.length
    const seen: SessionEvent[] = []
    const subscription = agent.transcript$.subscribe((event) => {
      seen.push(event)
      // Appended at once while idle: during the replay of the first event.
      if (event.seq === 1) agent.inject('a fact noted while reading the history')
    })
    expect(agent.session.events.length).toBe(history + 1)
    expect(seqs(seen)).toEqual(oneToN(history + 1))
    expect(seen.at(-1)).toMatchObject({ type: 'user/message' })
    agent.inject('and one more, live')
    expect(seqs(seen)).toEqual(oneToN(history + 2))
    subscription.unsubscribe()
    await agent.dispose()
  })

  it('a subscriber that leaves during the replay gets nothing more, live events included', async () => {
    const agent = createAgent({ model: scriptedModel(['a1']) })
    agent.followup('q1')
    await agent.whenIdle()
    const seen: SessionEvent[] = []
    agent.transcript$.pipe(takeWhile((event) => event.seq < 2, true)).subscribe((event) => {
      seen.push(event)
      if (event.seq === 1) agent.inject('noted while the first event is replayed')
    })
    agent.inject('after leaving')
    expect(seqs(seen)).toEqual([1, 2])
    await agent.dispose()
  })
})
