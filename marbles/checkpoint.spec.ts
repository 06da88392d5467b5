import { describe, it } from 'vitest'
import type { SessionEvent } from '../src/contracts/events.js'
import type { SessionStore } from '../src/contracts/store.js'
import type { ScriptedReply } from '../src/testing.js'
import { marbles, scenario } from './harness.js'

type Context = Parameters<Parameters<typeof marbles>[0]>[0]

/** A store whose every flush is the given cold diagram (5 frames to make things durable). */
const slowStore = (m: Context, flush = '5ms |') => {
  const flush$ = m.cold<void>(flush, {}, new Error('disk full'))
  const appended: SessionEvent[] = []
  const store: SessionStore = {
    load: () => [],
    append: (events) => {
      appended.push(...events)
    },
    flush: () => flush$,
  }
  return { store, flush$, appended }
}

describe('checkpoints', () => {
  it(
    'R36, V6: turn n+1 is admitted only after the flush that makes turn n durable completed',
    marbles((m) => {
      const { store, flush$ } = slowStore(m)
      const script: ScriptedReply[] = ['A1', 'A2']
      const { drive, expectEvents, expectTranscript } = scenario(m, { script, store })
      drive('-f', {
        f: (agent) => {
          agent.followup('a')
          agent.followup('b')
        },
      })
      // biome-ignore format: marble alignment
      expectEvents(    '-(abrd) 4ms x 4ms D 9ms y 4ms i', {
        a: 'enqueue(a,queued)', b: 'enqueue(b,queued)', r: 'running', d: 'dequeue(a)',
        x: 'settled(1,completed)', D: 'dequeue(b)', y: 'settled(2,completed)', i: 'idle',
      })
      // biome-ignore format: marble alignment
      expectTranscript('-(tup) 5ms (aen)(TUP) 5ms (AEN)', {
        t: 'turn/start(1)', u: 'user(a)', p: 'step/start(1.1)', a: 'assistant(A1)', e: 'step/end(1.1)',
        n: 'turn/end(1,completed)', T: 'turn/start(2)', U: 'user(b)', P: 'step/start(2.1)',
        A: 'assistant(A2)', E: 'step/end(2.1)', N: 'turn/end(2,completed)',
      })
      // biome-ignore format: marble alignment
      m.expect(flush$).toHaveSubscriptions([
        '11ms ^----!',
        '26ms ^----!',
      ])
    }),
  )

  it(
    'R36: an append outside any turn (an idle inject) is flushed right away',
    marbles((m) => {
      const { store, flush$ } = slowStore(m)
      const { drive, expectTranscript } = scenario(m, { script: [], store })
      drive('-c', { c: (agent) => agent.inject('fact') })
      expectTranscript('-c', { c: 'user(fact)' })
      m.expect(flush$).toHaveSubscriptions(['-^----!'])
    }),
  )

  it(
    'R36, R40: a failed checkpoint is reported on events$ and the agent goes on',
    marbles((m) => {
      const { store } = slowStore(m, '5ms #')
      const script: ScriptedReply[] = ['A1']
      const { drive, expectEvents } = scenario(m, { script, store })
      drive('-f', { f: (agent) => agent.followup('a') })
      // biome-ignore format: marble alignment
      expectEvents(    '-(erd) 5ms x 4ms (zi)', {
        e: 'enqueue(a,queued)', r: 'running', d: 'dequeue(a)', x: 'settled(1,completed)', z: 'error(1.0)',
        i: 'idle',
      })
    }),
  )

  it(
    'R36, R40: a checkpoint whose flush never finishes fails after flushTimeoutMs and the next turn runs',
    marbles((m) => {
      const { store, flush$ } = slowStore(m, '-')
      const script: ScriptedReply[] = ['A1', 'A2']
      const { drive, expectEvents } = scenario(m, { script, store, flushTimeoutMs: 20 })
      drive('-f', {
        f: (agent) => {
          agent.followup('a')
          agent.followup('b')
        },
      })
      // biome-ignore format: marble alignment
      expectEvents(    '-(abrd) 4ms x 19ms (zD) 6ms y 19ms (Zi)', {
        a: 'enqueue(a,queued)', b: 'enqueue(b,queued)', r: 'running', d: 'dequeue(a)',
        x: 'settled(1,completed)', z: 'error(1.0)', D: 'dequeue(b)', y: 'settled(2,completed)',
        Z: 'error(2.0)', i: 'idle',
      })
      // biome-ignore format: marble alignment
      m.expect(flush$).toHaveSubscriptions([
        '11ms ^-------------------!',
        '41ms ^-------------------!',
      ])
    }),
  )
})
