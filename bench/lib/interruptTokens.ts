/**
 * What an interrupting steer saves on a long answer (R68): a scripted model streams a 10,000-token
 * answer, one token per delta and one delta per macrotask (as chunks come off a socket); after the
 * 100th delta the app steers, `{interrupt: true}` or plain. Counted, not timed: the tokens the model
 * streamed after the steer, the deltas of the steered step published after the steer's enqueue,
 * and the deltas of the whole turn (the steered step, then a 100-token answer to the steer).
 */
import { performance } from 'node:perf_hooks'
import { Observable } from 'rxjs'
import type { ModelEvent } from '../../src/index.js'
import { steerable, steerableTesting } from './built.js'

export const ANSWER_TOKENS = 10_000
export const STEER_AFTER = 100
export const REPLY_TOKENS = 100

export type TokenCounts = {
  /** Tokens the model emitted after `steer()` was called (it stops when unsubscribed). */
  readonly streamedAfterSteer: number
  /** Deltas of the steered step published after the steer's `agent/inbox/enqueue`. */
  readonly stepDeltasAfterEnqueue: number
  /** Deltas of the whole turn, both steps. */
  readonly turnTokens: number
  /** Send to idle, for the record (a token per macrotask: mostly event-loop turns). */
  readonly turnMs: number
}

/** `n` text tokens, one per macrotask, then `stop`; `emitted` counts what left the model. */
const tokenStream = (n: number, counter: { emitted: number }) =>
  new Observable<ModelEvent>((subscriber) => {
    let i = 0
    let timer: NodeJS.Immediate | undefined
    const next = () => {
      if (i === n) {
        subscriber.next({ type: 'finish', reason: 'stop' })
        subscriber.complete()
        return
      }
      counter.emitted++
      subscriber.next({ type: 'text', text: `t${i++} ` })
      if (!subscriber.closed) timer = setImmediate(next)
    }
    timer = setImmediate(next)
    return () => clearImmediate(timer)
  })

export const tokenRun = async (interrupt: boolean): Promise<TokenCounts> => {
  const counter = { emitted: 0 }
  const reply = Array.from({ length: REPLY_TOKENS }, (_, i) => `r${i}`).join(' ')
  const model = steerableTesting.scriptedModel([tokenStream(ANSWER_TOKENS, counter), reply])
  const agent = steerable.createAgent({ model })
  let deltas = 0
  let stepDeltas = 0
  let atSteer = -1
  let atEnqueue = -1
  agent.events$.subscribe((e) => {
    if (e.type === 'agent/inbox/enqueue' && e.placement === 'steering') atEnqueue = stepDeltas
    if (e.type !== 'agent/stream/delta') return
    deltas++
    if (e.step === 1) stepDeltas++
    // From outside the delivery, as a person's steer comes: between two chunks.
    if (deltas === STEER_AFTER)
      queueMicrotask(() => {
        atSteer = counter.emitted
        agent.steer('Be brief.', interrupt ? { interrupt: true } : undefined)
      })
  })
  const t0 = performance.now()
  agent.followup('Tell a long story.')
  await agent.whenIdle()
  const turnMs = performance.now() - t0
  await agent.dispose()
  if (atSteer < 0 || atEnqueue < 0) throw new Error('interruptTokens: the steer was never sent')
  return {
    streamedAfterSteer: counter.emitted - atSteer,
    stepDeltasAfterEnqueue: stepDeltas - atEnqueue,
    turnTokens: deltas,
    turnMs,
  }
}
