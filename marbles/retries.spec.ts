import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { ModelRequestError } from '../src/openai.js'
import type { ScriptedReply } from '../src/testing.js'
import { marbles, scenario } from './harness.js'

const overloaded = () => new ModelRequestError('answered 503', { status: 503 })
const refused = () => new ModelRequestError('answered 400', { status: 400 })

describe('R117: retries with backoff, in virtual time', () => {
  // The jitter's random number in the middle: delays are exactly 1 s, 2 s, 4 s …
  beforeEach(() => {
    vi.spyOn(Math, 'random').mockReturnValue(0.5)
  })
  afterEach(() => {
    vi.restoreAllMocks()
  })

  it(
    'R117: a request that fails retryably is made again after 1 s, then 2 s, and the turn completes',
    marbles((m) => {
      const script: ScriptedReply[] = [{ error: overloaded() }, { error: overloaded() }, 'Done']
      const { drive, expectEvents, expectTranscript } = scenario(m, { script })
      drive('-f', { f: (agent) => agent.followup('go') })
      // biome-ignore format: marble alignment
      expectEvents(    '-(erd) 5ms a 1009ms b 2009ms (xi)', {
        e: 'enqueue(go,queued)', r: 'running', d: 'dequeue(go)', a: 'retry(1.1,1,1000)',
        b: 'retry(1.1,2,2000)', x: 'settled(1,completed)', i: 'idle',
      })
      // biome-ignore format: marble alignment
      expectTranscript('-(tup) 3025ms (aeN)', {
        t: 'turn/start(1)', u: 'user(go)', p: 'step/start(1.1)', a: 'assistant(Done)', e: 'step/end(1.1)',
        N: 'turn/end(1,completed)',
      })
    }),
  )

  it(
    'R117/R24: after the last retry the request fails, and requestError runs once',
    marbles((m) => {
      const errors: unknown[] = []
      const script: ScriptedReply[] = [
        { error: overloaded() },
        { error: overloaded() },
        { error: overloaded() },
      ]
      const { drive, expectEvents } = scenario(m, {
        script,
        onError: false,
        hooks: { requestError: ({ error }) => void errors.push(error) },
      })
      drive('-f', { f: (agent) => agent.followup('go') })
      // biome-ignore format: marble alignment
      expectEvents(    '-(erd) 5ms a 1009ms b 2009ms (Exi)', {
        e: 'enqueue(go,queued)', r: 'running', d: 'dequeue(go)', a: 'retry(1.1,1,1000)',
        b: 'retry(1.1,2,2000)', E: 'error(1.1)', x: 'settled(1,error)', i: 'idle',
      })
      m.scheduler.schedule(() => expect(errors).toHaveLength(1), 5000)
    }),
  )

  it(
    'R117: an error that is not retryable fails the turn at once',
    marbles((m) => {
      const { drive, expectEvents } = scenario(m, { script: [{ error: refused() }, 'never'], onError: false })
      drive('-f', { f: (agent) => agent.followup('go') })
      // biome-ignore format: marble alignment
      expectEvents(    '-(erd) 5ms (Exi)', {
        e: 'enqueue(go,queued)', r: 'running', d: 'dequeue(go)', E: 'error(1.1)', x: 'settled(1,error)',
        i: 'idle',
      })
    }),
  )

  it(
    'R117: the error’s retryAfterMs is the delay, and maxRetries bounds the retries',
    marbles((m) => {
      const limited = new ModelRequestError('answered 429', { status: 429, retryAfterMs: 300 })
      const script: ScriptedReply[] = [{ error: limited }, { error: limited }, 'never']
      const { drive, expectEvents } = scenario(m, { script, maxRetries: 1, onError: false })
      drive('-f', { f: (agent) => agent.followup('go') })
      // biome-ignore format: marble alignment
      expectEvents(    '-(erd) 5ms a 309ms (Exi)', {
        e: 'enqueue(go,queued)', r: 'running', d: 'dequeue(go)', a: 'retry(1.1,1,300)', E: 'error(1.1)',
        x: 'settled(1,error)', i: 'idle',
      })
    }),
  )

  it(
    'R117/R25: cancel() during the delay ends the turn aborted, and no request is made again',
    marbles((m) => {
      const script: ScriptedReply[] = [{ error: overloaded() }, 'never']
      const { drive, expectEvents, expectTranscript } = scenario(m, { script })
      drive('-f 500ms c', {
        f: (agent) => agent.followup('go'),
        c: (agent) => agent.cancel({ kind: 'user' }),
      })
      // biome-ignore format: marble alignment
      expectEvents(    '-(erd) 5ms a 490ms (Cxi)', {
        e: 'enqueue(go,queued)', r: 'running', d: 'dequeue(go)', a: 'retry(1.1,1,1000)',
        C: 'cancel(user)', x: 'settled(1,aborted)', i: 'idle',
      })
      // biome-ignore format: marble alignment
      expectTranscript('-(tup) 496ms (eN)', {
        t: 'turn/start(1)', u: 'user(go)', p: 'step/start(1.1)', e: 'step/end(1.1)', N: 'turn/end(1,aborted)',
      })
    }),
  )
})
