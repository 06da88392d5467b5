import { filter, type OperatorFunction } from 'rxjs'
import { InvalidInputError } from '../contracts/errors.js'

/**
 * Passes on only the events whose `type` is one of the given types, narrowed to those types.
 *
 * Like `filter(e => types.includes(e.type))`, but the output type is narrowed to the members of
 * the event union that carry one of the given `type` strings.
 *
 * ```text
 * --s--e--d--s--|     s = agent/status, e = agent/inbox/enqueue, d = agent/inbox/dequeue
 *   ofType('agent/status', 'agent/inbox/dequeue')
 * --s-----d--s--|
 * ```
 *
 * Rules:
 * 1. Works on any stream of objects with a string `type`: live `AgentEvent`s (`events$`) and
 *    durable `SessionEvent`s (`transcript$`) alike.
 * 2. An event passes when its `type` equals one of `types` (exact string comparison); it is
 *    passed on unchanged (same object), at the same moment, in source order.
 * 3. Completion and errors of the source pass through unchanged; nothing is added.
 * 4. Unsubscribing from the result unsubscribes from the source.
 * 5. At least one type is required: the signature demands it, and a call with none throws an
 *    `InvalidInputError` (a `TypeError`) at call time, before any subscription.
 *
 * @example
 * ```ts
 * agent.events$.pipe(ofType('agent/status')).subscribe(e => console.log(e.status))
 * agent.transcript$.pipe(ofType('user/message', 'steering/message')).subscribe(e => show(e.data.content))
 * ```
 *
 * @param types The `type` strings to keep (one or more).
 * @returns An operator that keeps the events of the given types, typed as those members.
 */
export function ofType<T extends { readonly type: string }, K extends T['type']>(
  ...types: [K, ...K[]]
): OperatorFunction<T, Extract<T, { readonly type: K }>> {
  if (types.length === 0) {
    throw new InvalidInputError('ofType()', [
      { path: ['types'], message: "expected at least one event type, e.g. ofType('agent/status')" },
    ])
  }
  const bad = types.findIndex((t) => typeof t !== 'string')
  if (bad !== -1) {
    throw new InvalidInputError('ofType()', [{ path: ['types', bad], message: 'expected string' }])
  }
  const wanted: ReadonlySet<string> = new Set(types)
  return filter((event: T): event is Extract<T, { readonly type: K }> => wanted.has(event.type))
}
