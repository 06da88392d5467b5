/**
 * The scripted collaborators of one run, all on virtual time: the model (cold marble streams,
 * failures, hangs) and the tools. Each follows its part of the schedule.
 */
import { NEVER, Observable, type Subscriber, tap } from 'rxjs'
import type { RunHelpers } from 'rxjs/testing'
import { z } from 'zod'
import type { Agent, ModelEvent, ModelRequest, ToolDefinition } from '../../src/index.js'
import { type ScriptedModel, type ScriptedReply, scriptedModel } from '../../src/testing.js'
import type { Log, Origin } from './log.js'
import type { MalformedEvent, Plan, Reply, SendKind, Thrown } from './schedule.js'

export type Env = {
  readonly cold: RunHelpers['cold']
  readonly log: Log
  readonly agent: () => Agent
  readonly send: (kind: SendKind, text: string, origin: Origin) => void
  /** The next value outside code throws (cyclic over the plan's `thrown`), made fresh. */
  readonly thrown: (message: string) => unknown
}

/** A fresh value of each kind outside code may throw; `message` for the kinds that carry one. */
export const thrownValue = (kind: Thrown, message: string): unknown => {
  switch (kind) {
    case 'error':
      return new Error(message)
    case 'nullProto':
      return Object.create(null)
    case 'badMessage':
      return Object.defineProperty(new Error(message), 'message', {
        get() {
          throw new Error('the message getter threw')
        },
      })
    case 'revoked':
      return revokedProxy()
    case 'symbol':
      return Symbol(message)
    case 'null':
      return null
    case 'numberMessage':
      return Object.assign(new Error(message), { message: 42 })
    case 'bigintMessage':
      return Object.assign(new Error(message), { message: { big: 1n } })
  }
}

const revokedProxy = (): object => {
  const { proxy, revoke } = Proxy.revocable({}, {})
  revoke()
  return proxy
}

/** What the `weird` tool returns, cyclic: none of these is a valid result. */
const WEIRD_RESULTS: readonly (() => unknown)[] = [
  revokedProxy,
  () =>
    Object.defineProperty({}, 'x', {
      enumerable: true,
      get: () => {
        throw Object.create(null)
      },
    }),
  () => Object.assign(Object.create(null), { n: 1n }),
]

/** What a `malformed` reply emits. */
const malformedEvent = (event: MalformedEvent): unknown =>
  event === 'bogus'
    ? { type: 'bogus' }
    : event === 'revoked'
      ? revokedProxy()
      : Object.defineProperty({}, 'type', {
          enumerable: true,
          get: () => {
            throw revokedProxy()
          },
        })

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
  env.cold(`${'-'.repeat(d)}#`, undefined, env.thrown(message))

const replyOf = (
  env: Env,
  reply: Reply,
  n: number,
  usage?: (n: number) => { inputTokens: number; outputTokens: number },
): ScriptedReply => {
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
      return cold(`${'-'.repeat(reply.gap)}a`, { a: malformedEvent(reply.event) as ModelEvent })
    case 'fail': {
      const deltas = Array.from({ length: reply.after }, (_, i) => `${LETTERS[i]}`).join('')
      const values = Object.fromEntries(
        [...deltas].map((c, i): [string, ModelEvent] => [c, { type: 'text', text: `w${i + 1} ` }]),
      )
      return cold(`${'-'.repeat(reply.gap)}${deltas}#`, values, env.thrown(`model failed (reply ${n})`))
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
        events.push({ type: 'finish', reason: reply.finish, ...(usage ? { usage: usage(n) } : {}) })
        if (reply.trailing) events.push({ type: 'text', text: 'ignored' })
      }
      let marble = ''
      const values: Record<string, ModelEvent> = {}
      events.forEach((event, i) => {
        const c = LETTERS[i] as string
        values[c] = event
        marble += '-'.repeat(reply.gaps[i % reply.gaps.length] ?? 0) + c
      })
      // Noted as it streams: a top-level call knows whether this request has finished (R68).
      return cold(`${marble}|`, values).pipe(
        tap((event) => {
          if (event.type === 'finish') log.finishedReplies.add(n)
        }),
      )
    }
  }
}

/**
 * R73, R76: when the agent compacts by itself, each answer's `finish` reports usage, its prompt
 * growing with the request number, so that some turns cross the threshold and some do not.
 */
export const buildModel = (env: Env, plan: Plan): ScriptedModel =>
  scriptedModel(
    plan.replies.map((reply, i) => replyOf(env, reply, i + 1, plan.autoCompaction ? usageOf : undefined)),
  )

const usageOf = (n: number) => ({ inputTokens: 10 * n, outputTokens: n })

const parameters = z.object({ d: z.number().int().min(0) })
type Args = z.infer<typeof parameters>

export const buildTools = (env: Env): ToolDefinition<Agent>[] => {
  const { log } = env
  let contexts = 0
  const tool = (
    name: string,
    execute: ToolDefinition<Agent, Args>['execute'],
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
      if (d === 0) throw env.thrown('tool failed')
      return failAfter(env, d, 'tool failed')
    }),
    tool('hang', () => tracked(log, NEVER)),
    tool('weird', () => WEIRD_RESULTS[log.weirdResults++ % WEIRD_RESULTS.length]?.()),
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
