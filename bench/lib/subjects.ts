/**
 * The three subjects of the benchmarks behind one small interface, so each workload runs
 * the same way on each: steerable (`createAgent`), the peer (`@mariozechner/pi-agent-core`, in
 * both queue modes) and the floor (bench/floor.ts). Every model answers at once with one text
 * block and `stop`; a held request waits for `release()`.
 */
import { Observable } from 'rxjs'
import type { ModelEvent, ModelRequest } from '../../src/index.js'
import { Floor, type FloorEvent } from '../floor.js'
import { loadPeer, type PeerApi, PeerHarness } from '../peers/peer.js'
import { steerable as built } from './built.js'
import { ensurePeers } from './peers.js'
import type { SubjectId } from './report.js'

export type Harness = {
  /** Queues a followup (the peer: `followUp`), the string form. */
  send(text: string): void
  /**
   * Queues a followup given as data `{content, source}` with one text block: the string form's
   * value, which steerable checks by hand and then treats as the string form.
   */
  sendData(text: string): void
  /** The same with two text blocks: steerable's general fast path (checked, copied, frozen). */
  sendBlocks(text: string): void
  /** One whole turn from idle (steerable and the floor: followup + whenIdle; the peer: `prompt`). */
  turn(text: string): Promise<void>
  /** Opens a turn whose answer waits for `release()`; resolves once the model was asked. */
  hold(text: string): Promise<void>
  release(): void
  whenIdle(): Promise<void>
  /** Drops the queued messages, so a capped drain stops after the running turn. */
  discard(): void
  dispose(): Promise<void>
}

export type HarnessOptions = {
  /** Called on every model request: once per turn in these workloads. */
  readonly onModelCall?: () => void
}

export type Factory = (options?: HarnessOptions) => Harness

const ANSWER: readonly ModelEvent[] = [
  { type: 'text', text: 'ok' },
  { type: 'finish', reason: 'stop' },
]

const steerable: Factory = (options = {}) => {
  let holding = false
  let called: (() => void) | undefined
  let held: (() => void) | undefined
  const model = (_request: ModelRequest) => {
    options.onModelCall?.()
    const wasCalled = called
    called = undefined
    wasCalled?.()
    if (!holding) return ANSWER
    holding = false
    return new Observable<ModelEvent>((subscriber) => {
      held = () => {
        for (const event of ANSWER) subscriber.next(event)
        subscriber.complete()
      }
    })
  }
  const agent = built.createAgent({ model })
  return {
    send: (text) => {
      agent.followup(text)
    },
    sendData: (text) => {
      agent.followup({ content: [{ type: 'text', text }], source: { kind: 'user' } })
    },
    sendBlocks: (text) => {
      agent.followup({
        content: [
          { type: 'text', text },
          { type: 'text', text },
        ],
        source: { kind: 'user' },
      })
    },
    turn: (text) => {
      agent.followup(text)
      return agent.whenIdle()
    },
    hold: (text) => {
      holding = true
      const asked = new Promise<void>((resolve) => {
        called = resolve
      })
      agent.followup(text)
      return asked
    },
    release: () => {
      const h = held
      held = undefined
      h?.()
    },
    whenIdle: () => agent.whenIdle(),
    discard: () => agent.cancel({ kind: 'user' }),
    dispose: () => agent.dispose(),
  }
}

const FLOOR_ANSWER: readonly FloorEvent[] = [{ type: 'text', text: 'ok' }, { type: 'finish' }]

const floor: Factory = (options = {}) => {
  let holding = false
  let called: (() => void) | undefined
  let held: (() => void) | undefined
  const f = new Floor(() => {
    options.onModelCall?.()
    const wasCalled = called
    called = undefined
    wasCalled?.()
    if (!holding) return FLOOR_ANSWER
    holding = false
    return new Promise<readonly FloorEvent[]>((resolve) => {
      held = () => resolve(FLOOR_ANSWER)
    })
  })
  return {
    send: (text) => {
      f.followup(text)
    },
    sendData: (text) => {
      f.followup(text)
    },
    sendBlocks: (text) => {
      f.followup(text, [
        { type: 'text', text },
        { type: 'text', text },
      ])
    },
    turn: (text) => {
      f.followup(text)
      return f.whenIdle()
    },
    hold: (text) => {
      holding = true
      const asked = new Promise<void>((resolve) => {
        called = resolve
      })
      f.followup(text)
      return asked
    },
    release: () => {
      const h = held
      held = undefined
      h?.()
    },
    whenIdle: () => f.whenIdle(),
    discard: () => f.clear(),
    dispose: async () => {
      f.clear()
      await f.whenIdle()
    },
  }
}

const peerFactory =
  (api: PeerApi, mode: 'one-at-a-time' | 'all'): Factory =>
  (options = {}) => {
    const onModelCall = options.onModelCall
    const h = new PeerHarness(api, { mode, ...(onModelCall ? { onModelCall: () => onModelCall() } : {}) })
    return {
      send: (text) => h.send(text),
      sendData: (text) => h.send(text),
      sendBlocks: (text) => h.sendBlocks(text),
      turn: (text) => h.turn(text),
      hold: (text) => h.hold(text),
      release: () => h.release(),
      whenIdle: () => h.whenIdle(),
      discard: () => h.discard(),
      dispose: () => h.dispose(),
    }
  }

/** The subjects available in this process: the peer's only when it is (or can be) installed. */
export const loadSubjects = async (
  withPeer = true,
): Promise<{
  readonly factories: Partial<Record<SubjectId, Factory>>
  readonly peerVersion?: string
}> => {
  const api = withPeer && ensurePeers() ? await loadPeer() : undefined
  if (withPeer && !api) console.error('the peer library is not available: its columns stay empty')
  return {
    factories: {
      steerable,
      ...(api ? { pi: peerFactory(api, 'one-at-a-time'), piAll: peerFactory(api, 'all') } : {}),
      floor,
    },
    ...(api ? { peerVersion: api.version } : {}),
  }
}
