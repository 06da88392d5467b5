/**
 * The smallest agent each subject can make for the many-agents workloads (bench/agents.ts,
 * bench/streaming.ts): no harness object or closures of the benchmark's own around each agent,
 * so what an agent costs is the library's. Every agent shares one model function, which answers
 * at once with one text block (or streams `deltas` text deltas).
 */
import { Observable } from 'rxjs'
import type { ModelEvent } from '../../src/index.js'
import { Floor, type FloorEvent } from '../floor.js'
import { loadPeer } from '../peers/peer.js'
import { steerable as built } from './built.js'
import type { SubjectId } from './report.js'

/** One agent: `turn` runs one short turn from idle; `subscribe` counts the streamed text deltas. */
export type Minimal = {
  make(): unknown
  turn(agent: unknown, text: string): Promise<void>
  countDeltas(agent: unknown, counter: { n: number }): void
}

const ANSWER: readonly ModelEvent[] = [
  { type: 'text', text: 'ok' },
  { type: 'finish', reason: 'stop' },
]

type SteerableAgent = ReturnType<typeof built.createAgent>

const steerable = (deltas: number): Minimal => {
  // A streaming model emits its deltas as a real adapter does: a new event object each.
  const model =
    deltas === 0
      ? () => ANSWER
      : () =>
          new Observable<ModelEvent>((subscriber) => {
            for (let i = 0; i < deltas && !subscriber.closed; i++)
              subscriber.next({ type: 'text', text: 'x' })
            subscriber.next({ type: 'finish', reason: 'stop' })
            subscriber.complete()
          })
  return {
    make: () => built.createAgent({ model }),
    turn: (agent, text) => {
      const a = agent as SteerableAgent
      a.followup(text)
      return a.whenIdle()
    },
    countDeltas: (agent, counter) => {
      ;(agent as SteerableAgent).events$.subscribe((e) => {
        if (e.type === 'agent/stream/delta') counter.n++
      })
    },
  }
}

type PiAgent = {
  prompt(message: unknown): Promise<void>
  subscribe(listener: (event: { type: string }) => void): () => void
}
type PiStream = { push(event: unknown): void }

const ZERO_USAGE = Object.freeze({
  input: 0,
  output: 0,
  cacheRead: 0,
  cacheWrite: 0,
  totalTokens: 0,
  cost: Object.freeze({ input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 }),
})

const pi = async (deltas: number): Promise<Minimal> => {
  const api = await loadPeer()
  if (!api) throw new Error('the peer is not installed (npm ci --prefix bench/peers)')
  const assistant = (text: string) => ({
    role: 'assistant',
    content: [{ type: 'text', text }],
    api: 'bench',
    provider: 'bench',
    model: 'bench',
    usage: ZERO_USAGE,
    stopReason: 'stop',
    timestamp: Date.now(),
  })
  // pi-ai's event protocol, as its providers stream it: `start`, then per delta the delta and the
  // partial message so far, then `done` with the final message.
  const streamFn = () => {
    const stream = api.ai.createAssistantMessageEventStream() as PiStream
    if (deltas > 0) {
      const partial = assistant('')
      const block = partial.content[0] as { text: string }
      stream.push({ type: 'start', partial })
      stream.push({ type: 'text_start', contentIndex: 0, partial })
      for (let i = 0; i < deltas; i++) {
        block.text += 'x'
        stream.push({ type: 'text_delta', contentIndex: 0, delta: 'x', partial })
      }
      stream.push({ type: 'text_end', contentIndex: 0, content: block.text, partial })
      stream.push({ type: 'done', reason: 'stop', message: partial })
    } else stream.push({ type: 'done', reason: 'stop', message: assistant('ok') })
    return stream
  }
  const Agent = api.agentCore.Agent as unknown as new (options: object) => PiAgent
  return {
    make: () => new Agent({ streamFn }),
    turn: (agent, text) =>
      (agent as PiAgent).prompt({ role: 'user', content: [{ type: 'text', text }], timestamp: Date.now() }),
    countDeltas: (agent, counter) => {
      ;(agent as PiAgent).subscribe((e) => {
        if (
          e.type === 'message_update' &&
          (e as { assistantMessageEvent?: { type: string } }).assistantMessageEvent?.type === 'text_delta'
        )
          counter.n++
      })
    },
  }
}

const FLOOR_ANSWER: readonly FloorEvent[] = [{ type: 'text', text: 'ok' }, { type: 'finish' }]

const floor = (): Minimal => {
  const model = () => FLOOR_ANSWER
  return {
    make: () => new Floor(model),
    turn: (agent, text) => {
      const f = agent as Floor
      f.followup(text)
      return f.whenIdle()
    },
    countDeltas: () => {
      throw new Error('the floor does not stream')
    },
  }
}

/** The subject's minimal agent maker; `deltas` > 0 makes its model stream that many text deltas. */
export const minimal = async (subject: SubjectId, deltas = 0): Promise<Minimal> =>
  subject === 'steerable' ? steerable(deltas) : subject === 'floor' ? floor() : pi(deltas)
