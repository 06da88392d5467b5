import { catchError, concatMap, defaultIfEmpty, map, type Observable, of, take } from 'rxjs'
import type { PromptSubmitArgs } from '../contracts/hooks.js'
import type { Signal } from '../machine/inputs.js'
import { type DecisionAcc, parsePromptDecision } from '../messages/parsePromptDecision.js'
import { callHook } from './callHook.js'

/**
 * The admission decision (R11–R13): each `promptSubmit` hook in turn sees the prompt as
 * rewritten so far (its first answer counts; none means allow); contexts accumulate; a `block`
 * ends the chain. One signal comes out: `admission/allowed`, `admission/blocked`, or
 * `admission/failed` when a hook throws, errors or decides something invalid.
 */
export const decideAdmission = <A>(
  hooks: readonly ((args: PromptSubmitArgs<A>) => unknown)[],
  activity: number,
  args: PromptSubmitArgs<A>,
): Observable<Signal> => {
  const { agent, source, signal } = args
  const initial: DecisionAcc = { content: args.content, rewritten: false, contexts: [], blocked: false }
  const decided = hooks.reduce<Observable<DecisionAcc>>(
    (acc$, hook) =>
      acc$.pipe(
        concatMap((acc) =>
          acc.blocked
            ? of(acc)
            : callHook(() => hook({ agent, content: acc.content, source, signal })).pipe(
                take(1),
                defaultIfEmpty(undefined),
                map((decision) => parsePromptDecision(acc, decision)),
              ),
        ),
      ),
    of(initial),
  )
  return decided.pipe(
    map((acc): Signal => {
      if (acc.blocked) return { type: 'admission/blocked', activity, reason: acc.reason }
      const admission = acc.rewritten
        ? { additionalContexts: acc.contexts, content: acc.content }
        : { additionalContexts: acc.contexts }
      return { type: 'admission/allowed', activity, admission }
    }),
    catchError((error: unknown) => of<Signal>({ type: 'admission/failed', activity, error })),
  )
}
