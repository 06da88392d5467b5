/**
 * Helpers for the public-API tests: a recorder that interleaves `events$` and `transcript$` into one
 * list of labels (they are delivered in one global order), agents recorded from their creation,
 * deferreds, a delay, a gate model reply that the test releases by hand, and message texts. Label
 * sequences are in `labels.ts`, tool helpers in `tools.ts`.
 */
import { asapScheduler, type Observable, Subject } from 'rxjs'
import {
  type Agent,
  type AgentEvent,
  type AgentOptions,
  createAgent,
  type ModelEvent,
  type SessionEvent,
} from '../../src/index.js'
import { label, type ScriptedModel, type ScriptedReply, scriptedModel } from '../../src/testing.js'

export { oneTurn } from './labels.js'

export type Recording = {
  /** Labels of live and durable events, interleaved in delivery order (deltas left out). */
  readonly log: string[]
  readonly live: AgentEvent[]
  readonly durable: SessionEvent[]
  /** Resolves once `log` contains `entry` (at once if it already does). */
  readonly when: (entry: string) => Promise<void>
  readonly completed: { events: boolean; transcript: boolean }
}

/**
 * Subscribes to both streams of `agent`, labelling into `log` (a list the test may write to as
 * well); durable events already in the session are skipped.
 */
export const record = (agent: Agent, log: string[] = []): Recording => {
  const from = agent.session.events.length
  const live: AgentEvent[] = []
  const durable: SessionEvent[] = []
  const waiters: { entry: string; resolve: () => void }[] = []
  const completed = { events: false, transcript: false }
  const push = (entry: string): void => {
    log.push(entry)
    for (const w of waiters.filter((x) => x.entry === entry)) {
      waiters.splice(waiters.indexOf(w), 1)
      w.resolve()
    }
  }
  agent.events$.subscribe({
    next: (e) => {
      live.push(e)
      // Deltas and the tool lifecycle (R72) are kept in `live`; the log shows the rest.
      if (e.type !== 'agent/stream/delta' && e.type !== 'agent/tool/start' && e.type !== 'agent/tool/end')
        push(label(e))
    },
    complete: () => {
      completed.events = true
    },
  })
  agent.transcript$.subscribe({
    next: (e) => {
      if (e.seq <= from) return
      durable.push(e)
      push(label(e))
    },
    complete: () => {
      completed.transcript = true
    },
  })
  const when = (entry: string): Promise<void> =>
    log.includes(entry) ? Promise.resolve() : new Promise((resolve) => waiters.push({ entry, resolve }))
  return { log, live, durable, when, completed }
}

/** An agent on a scripted model, recorded (into `log`) from its creation. */
export const setup = (
  script: readonly ScriptedReply[] = [],
  options: Omit<AgentOptions, 'model'> = {},
  log: string[] = [],
): { agent: Agent; model: ScriptedModel; rec: Recording } => {
  const model = scriptedModel(script)
  const agent = createAgent({ ...options, model })
  return { agent, model, rec: record(agent, log) }
}

/**
 * `setup` on the asap scheduler (unless `options` name another), with the recording spread out:
 * pass your own `log` to interleave what tools and hooks note with the agent's labels.
 */
export const run = (
  script: readonly ScriptedReply[],
  options: Omit<AgentOptions, 'model'> = {},
  log: string[] = [],
): { agent: Agent; model: ScriptedModel; log: string[]; live: AgentEvent[]; durable: SessionEvent[] } => {
  const { agent, model, rec } = setup(script, { scheduler: asapScheduler, ...options }, log)
  return { agent, model, log: rec.log, live: rec.live, durable: rec.durable }
}

export const delay = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

export type Deferred<T = void> = {
  readonly promise: Promise<T>
  readonly resolve: (value: T) => void
  readonly reject: (error: unknown) => void
}

export const deferred = <T = void>(): Deferred<T> => {
  let resolve!: (value: T) => void
  let reject!: (error: unknown) => void
  const promise = new Promise<T>((res, rej) => {
    resolve = res
    reject = rej
  })
  return { promise, resolve, reject }
}

/** A model reply that waits until the test releases it (as text, then a `stop` finish) or fails it. */
export const gate = (): {
  readonly reply: Observable<ModelEvent>
  readonly release: (text: string) => void
  readonly fail: (error: unknown) => void
  /** Whether a turn is waiting on this reply (the model was called): an event to wait for. */
  readonly called: () => boolean
} => {
  const subject = new Subject<ModelEvent>()
  return {
    reply: subject,
    called: () => subject.observed,
    release: (text) => {
      subject.next({ type: 'text', text })
      subject.next({ type: 'finish', reason: 'stop' })
      subject.complete()
    },
    fail: (error) => subject.error(error),
  }
}

/** The texts of a message list (first block of each), for `session.messages()` and requests. */
export const texts = (messages: readonly { readonly content: readonly unknown[] }[]): string[] =>
  messages.map((m) => {
    const first = m.content[0] as { type: string; text?: string; toolCallId?: string } | undefined
    return first?.text ?? (first?.toolCallId !== undefined ? `result:${first.toolCallId}` : '')
  })

/** The text of a content list: its text blocks joined (other blocks count as empty). */
export const textOf = (content: readonly { readonly type: string; readonly text?: string }[]): string =>
  content.map((b) => b.text ?? '').join('')

export const FOLLOWUP = { target: 'next-turn', wakeup: true } as const
export const PARKED = { target: 'next-turn', wakeup: false } as const
export const STEER = { target: 'next-step', wakeup: true } as const
export const INJECT = { target: 'next-step', wakeup: false } as const
