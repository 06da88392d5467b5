/**
 * Cut steps (R68), after the run:
 *
 * - a cut step (`step/end {interrupted}`) has no `tool/call` nor `tool/result`; its answer, if
 *   any, is `interrupted` and holds text only; its drain holds a steering message marked
 *   `interrupt` whose send asked to interrupt; no delta of the step comes after that steer's
 *   `enqueue`;
 * - an `interrupted` answer and an `interrupt` steering message belong to a cut step;
 * - an interrupting steer made at top level cuts exactly when the step it met was streaming
 *   (streaming.ts): the steer and the cut step's end are published inside the call.
 */
import type { SessionEvent } from '../../src/index.js'
import type { Log } from './log.js'

type Durable = { readonly e: SessionEvent; readonly at: number }

/** The last index before `end` whose item fits (-1: none). */
export const lastIndexBefore = <T>(list: readonly T[], end: number, fits: (item: T) => boolean): number => {
  for (let i = Math.min(end, list.length) - 1; i >= 0; i--) if (fits(list[i] as T)) return i
  return -1
}

const durableOf = (log: Log): Durable[] =>
  log.timeline.flatMap((x, at) => ('durable' in x ? [{ e: x.durable, at }] : []))

/** The `step/end` that closes the step open at `index` of `durable` (same turn), if any. */
const stepEndAfter = (durable: readonly Durable[], index: number, turn: number): Durable | undefined =>
  durable
    .slice(index + 1)
    .find(({ e }) => (e.type === 'step/end' || e.type === 'turn/end') && e.data.turn === turn)

export const checkCuts = (log: Log): string[] => {
  const problems: string[] = []
  const durable = durableOf(log)
  durable.forEach(({ e, at }, index) => {
    if (e.type === 'assistant/message' && e.data.interrupted) {
      const end = stepEndAfter(durable, index, e.data.turn)
      if (end?.e.type !== 'step/end' || !end.e.data.interrupted || end.e.data.step !== e.data.step)
        problems.push(`R68: interrupted answer of ${e.data.turn}.${e.data.step} in a step that was not cut`)
    }
    if (e.type === 'steering/message' && e.data.interrupt) {
      const end = stepEndAfter(durable, index, e.data.turn)
      if (end?.e.type !== 'step/end' || !end.e.data.interrupted)
        problems.push(`R68: steering ${e.data.id} marked interrupt, yet no cut step ends after it`)
      if (!log.sent.get(e.data.id)?.options.interrupt)
        problems.push(`R68: steering ${e.data.id} marked interrupt, yet its send did not ask to interrupt`)
    }
    if (e.type !== 'step/end' || !e.data.interrupted) return
    const { turn, step } = e.data
    const p = (s: string) => problems.push(`R68: cut step ${turn}.${step}: ${s}`)
    const from = lastIndexBefore(
      durable,
      index,
      (x) => x.e.type === 'step/start' && x.e.data.turn === turn && x.e.data.step === step,
    )
    if (from < 0) {
      p('no step/start')
      return
    }
    const inside = durable.slice(from + 1, index).map((x) => x.e)
    if (inside.some((x) => x.type === 'tool/call' || x.type === 'tool/result'))
      p('has a tool/call or tool/result')
    for (const x of inside)
      if (
        x.type === 'assistant/message' &&
        (!x.data.interrupted || x.data.content.some((b) => b.type !== 'text'))
      )
        p(`answer ${JSON.stringify(x.data)} is not an interrupted text`)
    const steers = inside.flatMap((x) =>
      x.type === 'steering/message' && x.data.interrupt ? [x.data.id] : [],
    )
    if (steers.length !== 1) p(`drained ${steers.length} steers marked interrupt, expected one`)
    // R68: no delta of the cut step after the cutting steer's enqueue.
    for (const id of steers) {
      const enqueued = lastIndexBefore(
        log.timeline,
        at,
        (x) => 'live' in x && x.live.type === 'agent/inbox/enqueue' && x.live.message.id === id,
      )
      const late = log.timeline.some(
        (x, i) =>
          i > enqueued &&
          'live' in x &&
          x.live.type === 'agent/stream/delta' &&
          x.live.turn === turn &&
          x.live.step === step,
      )
      if (enqueued < 0 || late) p(`a delta after the enqueue of ${id} (at #${enqueued})`)
    }
  })
  problems.push(...topLevelInterrupts(log))
  return problems
}

const topLevelInterrupts = (log: Log): string[] => {
  const problems: string[] = []
  for (const a of log.attempts) {
    if (a.streaming === undefined || a.origin !== 'step' || a.disposeCalled !== 'none' || !('id' in a.result))
      continue
    const { id } = a.result
    const p = (s: string) => problems.push(`R68: interrupting ${a.kind}("${a.text}") at t=${a.frame}: ${s}`)
    const slice = log.timeline.slice(a.position, a.end).flatMap((x) => ('durable' in x ? [x.durable] : []))
    const cut = slice.find((e) => e.type === 'step/end' && e.data.interrupted)
    const steering = log.durable.find((e) => e.type === 'steering/message' && e.data.id === id)
    const marked = steering?.type === 'steering/message' && steering.data.interrupt === true
    if (a.streaming === null) {
      if (cut) p('cut a step, yet none was streaming')
      if (marked) p('its steering message is marked interrupt, yet no step was streaming')
      continue
    }
    const { turn, step } = a.streaming
    if (cut?.type !== 'step/end' || cut.data.turn !== turn || cut.data.step !== step)
      p(`step ${turn}.${step} was streaming, yet the call did not cut it`)
    if (!marked || !slice.includes(steering as SessionEvent))
      p('its steering message, marked interrupt, was not appended inside the call')
  }
  return problems
}
