/**
 * The scripted collaborators of one run, all on virtual time: the model (cold marble streams,
 * failures, hangs) and the tools. Each follows its part of the schedule.
 */
import { NEVER, Observable, type Subscriber } from 'rxjs'
import type { RunHelpers } from 'rxjs/testing'
import { z } from 'zod'
import type { Agent, ModelEvent, ModelRequest, ToolDefinition } from '../../src/index.js'
import { type ScriptedModel, type ScriptedReply, scriptedModel } from '../../src/testing.js'
import type { Log, Origin } from './log.js'
import type { Plan, Reply, SendKind } from './schedule.js'

export type Env = {
  readonly cold: RunHelpers['cold']
  readonly log: Log
  readonly agent: () => Agent
  readonly send: (kind: SendKind, text: string, origin: Origin) => void
}

const LETTERS = 'abcdeghijklmnopqrstuvwxyz'

/** Counts the subscription in `log.hangs` while it is open. */
export const tracked = <T>(log: Log, source: Observable<T>): Observable<T> =>
  new Observable<T>((subscriber) => {
    log.hangs++
    const subscription = source.subscribe(subscriber)
    return () => {
      log.hangs--
      subscription.unsubscribe()
    }
  })

/** Never emits by itself; runs `react` when `signal` aborts. */
export const onAbort = <T>(signal: AbortSignal, react: (subscriber: Subscriber<T>) => void): Observable<T> =>
  new Observable<T>((subscriber) => {
    const listener = () => react(subscriber)
    if (signal.aborted) listener()
    else signal.addEventListener('abort', listener, { once: true })
    return () => signal.removeEventListener('abort', listener)
  })

export const after = <T>(env: Env, d: number, value: T): T | Observable<T> =>
  d === 0 ? value : env.cold(`${'-'.repeat(d)}(v|)`, { v: value })
export const failAfter = (env: Env, d: number, message: string): Observable<never> =>
  env.cold(`${'-'.repeat(d)}#`, undefined, new Error(message))

const replyOf = (env: Env, reply: Reply, n: number): ScriptedReply => {
  const { cold, log } = env
  switch (reply.kind) {
    case 'hang':
      return (request: ModelRequest) =>
        tracked(
          log,
          onAbort<ModelEvent>(request.signal, (s) => {
            if (reply.onAbort === 'error') s.error(request.signal.reason)
          }),
        )
    case 'malformed':
      return cold(`${'-'.repeat(reply.gap)}a`, { a: { type: 'bogus' } as unknown as ModelEvent })
    case 'fail': {
      const deltas = Array.from({ length: reply.after }, (_, i) => `${LETTERS[i]}`).join('')
      const values = Object.fromEntries(
        [...deltas].map((c, i): [string, ModelEvent] => [c, { type: 'text', text: `w${i + 1} ` }]),
      )
      return cold(`${'-'.repeat(reply.gap)}${deltas}#`, values, new Error(`model failed (reply ${n})`))
    }
    case 'stream': {
      const events: ModelEvent[] = []
      for (let i = 0; i < reply.words; i++) events.push({ type: 'text', text: `r${n}w${i + 1} ` })
      reply.calls.forEach((call, j) => {
        const name = call.tool === 'badArgs' ? 'ok' : call.tool
        const args = call.tool === 'badArgs' ? '{"d":"x"}' : `{"d":${call.d}}`
        events.push({ type: 'tool-call', id: `c${n}.${j + 1}`, name, arguments: args })
      })
      if (reply.finish !== 'none') {
        events.push({ type: 'finish', reason: reply.finish })
        if (reply.trailing) events.push({ type: 'text', text: 'ignored' })
      }
      let marble = ''
      const values: Record<string, ModelEvent> = {}
      events.forEach((event, i) => {
        const c = LETTERS[i] as string
        values[c] = event
        marble += '-'.repeat(reply.gaps[i % reply.gaps.length] ?? 0) + c
      })
      return cold(`${marble}|`, values)
    }
  }
}

export const buildModel = (env: Env, plan: Plan): ScriptedModel =>
  scriptedModel(plan.replies.map((reply, i) => replyOf(env, reply, i + 1)))

const parameters = z.object({ d: z.number().int().min(0) })
type Args = z.infer<typeof parameters>

export const buildTools = (env: Env): ToolDefinition<Agent>[] => {
  const { log } = env
  let contexts = 0
  const tool = (
    name: string,
    execute: ToolDefinition<Agent, typeof parameters>['execute'],
    parallel = false,
  ): ToolDefinition<Agent> =>
    ({
      name,
      description: `${name} tool`,
      parameters,
      execute,
      ...(parallel ? { parallel } : {}),
    }) as ToolDefinition<Agent>
  return [
    tool('ok', ({ d }: Args) => after(env, d, 'ok')),
    tool('pok', ({ d }: Args) => after(env, d, 'ok'), true),
    tool('fail', ({ d }: Args) => {
      if (d === 0) throw new Error('tool failed')
      return failAfter(env, d, 'tool failed')
    }),
    tool('hang', () => tracked(log, NEVER)),
    tool('hangValue', (_, ctx) =>
      tracked(
        log,
        onAbort(ctx.signal, (s) => {
          s.next('late')
          s.complete()
        }),
      ),
    ),
    tool('hangErr', (_, ctx) =>
      tracked(
        log,
        onAbort(ctx.signal, (s) => s.error(ctx.signal.reason)),
      ),
    ),
    tool('hangSend', (_, ctx) =>
      tracked(
        log,
        onAbort(ctx.signal, () => env.send('followup', `ab${++log.abortSends}`, 'abort')),
      ),
    ),
    tool('ctx', ({ d }: Args, ctx) => {
      const text = `tc${++contexts}`
      log.toolContexts.push(text)
      ctx.context(text)
      return after(env, d, 'ok')
    }),
    tool('conclude', ({ d }: Args, ctx) => {
      ctx.concludeTurn()
      return after(env, d, 'done')
    }),
  ]
}
