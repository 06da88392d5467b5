import {
  defer,
  distinctUntilChanged,
  filter,
  firstValueFrom,
  map,
  merge,
  type Observable,
  Subject,
  scan,
  startWith,
} from 'rxjs'
import { AgentBusyError, AgentDisposedError } from '../errors.js'
import type { AgentEvent, SessionEvent } from '../events.js'
import { fifoToArray } from '../inbox/fifo.js'
import { type AcceptedSend, splitSends } from '../inbox/splitSends.js'
import { canRetry } from '../loop/close.js'
import { hookList, type PromptDecision, type PromptSubmitArgs } from '../loop/hooks.js'
import type { Command, Effect, Output, Signal } from '../loop/inputs.js'
import { mergeEffects } from '../loop/mergeEffects.js'
import { reduce } from '../loop/reduce.js'
import { createEffectRunner } from '../loop/runEffect.js'
import { initialState, itemSource, itemWakes } from '../loop/state.js'
import { trampoline } from '../loop/trampoline.js'
import type { AgentMessage, SendInput, SendOptions } from '../messages/types.js'
import { userTextMessage } from '../messages/userText.js'
import { parseCancelArgs, parseSendInput, parseSendOptions, shorthandTextOf } from '../messages/validate.js'
import { isHumanPrompt } from '../session/isHumanPrompt.js'
import { Transcript } from '../session/session.js'
import { flushTranscript, memoryStore } from '../session/store.js'
import { createToolBatchRunner } from '../tools/runToolBatch.js'
import { toolSpecsOf } from '../tools/toolSpecs.js'
import { checkOptions } from './checkOptions.js'
import { registerExtensions } from './extensions.js'
import { checkHistory, closeInterruptedTurn, lastTurnOf } from './history.js'
import { idleTracker } from './idleTracker.js'
import { inlet } from './inlet.js'
import { mintMessageId, mintSessionId } from './mint.js'
import { type Published, publishOutputs } from './publishOutputs.js'
import type { Agent, AgentOptions } from './types.js'

const FOLLOWUP: SendOptions = Object.freeze({ target: 'next-turn', wakeup: true })
const STEER: SendOptions = Object.freeze({ target: 'next-step', wakeup: true })
const INJECT: SendOptions = Object.freeze({ target: 'next-step', wakeup: false })

/**
 * Creates an agent (SPEC section 3). The façade only wires the pipeline:
 *
 * ```text
 * send() ─► sends ─splitSends─► queue / inject ─┐
 * cancel() retry() dispose() ─► commands ────────┼─► trampoline ─► scan(reduce) ─► publishOutputs
 * effect outcomes ─────────────► signals ────────┘                                   │       │
 *        ▲                   live ─► events$, durable (appended) ─► transcript$ ◄───┘       │
 *        └──────────────── effect runner (mergeEffects) ◄──────────────── effects ◄─────────┘
 * ```
 *
 * `sends`, `commands`, `signals` and `effects` are inlets (one reader each); the only Subject is
 * the one behind `events$`/`status$`/`transcript$` (see below).
 */
export const createAgent = (options: AgentOptions): Agent => {
  const { model, scheduler, instructions, hooks, tools, maxParallel } = checkOptions(options)
  const store = options.store ?? memoryStore()
  const loaded = store.load()
  const history =
    loaded.length > 0 ? loaded : options.history === undefined ? [] : checkHistory(options.history)
  if (loaded.length === 0 && history.length > 0) store.append(history)
  const agentId = options.id ?? mintSessionId()
  const idle = idleTracker()
  // Inputs are counted as they enter the pipeline (whenIdle waits for their delivery).
  const signals = inlet<Signal>(idle.entered)
  const transcript = new Transcript(store, history, (error) => signals.next({ type: 'store/failed', error }))
  for (const draft of closeInterruptedTurn(history)) transcript.append(draft)

  // The design card's shape: sends enter as an Observable and are split by target and wakeup
  // (splitSends: connect + type-guard filters) into the queue and inject streams.
  const sends = inlet<AcceptedSend>(idle.entered)
  const commands = inlet<Command>(idle.entered)
  let state = initialState(agentId, lastTurnOf(history))
  let finished = false

  const reductions$ = merge(
    sends.observable.pipe(splitSends()),
    commands.observable,
    signals.observable,
  ).pipe(
    trampoline(),
    scan((acc, input) => reduce(acc.state, input), { state, out: [] as readonly Output[] }),
  )
  const effects = inlet<Effect>()
  // What events$, status$ and transcript$ subscribers share. An output nobody observes is not
  // sent through it: a Subject's next costs an ES5 iteration (garbage) in the CommonJS RxJS that
  // Node loads, and most outputs of a busy agent are watched by few or none (issue #7).
  const published = new Subject<Published>()
  const output$ = published.asObservable()
  const events$: Observable<AgentEvent> = output$.pipe(
    filter((o) => o.kind === 'live'),
    map((o) => o.event),
  )
  const durable$: Observable<SessionEvent> = output$.pipe(
    filter((o) => o.kind === 'event'),
    map((o) => o.event),
  )
  const ensureAccepting = (call: string): void => {
    if (finished) throw new AgentDisposedError(call)
  }
  const sendChecked = (input: SendInput, sendOptions: SendOptions, call: string): AgentMessage['id'] => {
    ensureAccepting(call)
    if (typeof input === 'string') {
      // The shorthand needs no checking: made in one go, without an intermediate data object.
      const id = mintMessageId()
      sends.next({ message: userTextMessage(id, input), options: sendOptions, text: input })
      return id
    }
    const data = parseSendInput(input, call)
    const id = mintMessageId()
    sends.next({
      message: Object.freeze({ id, content: data.content, source: data.source }),
      options: sendOptions,
      text: shorthandTextOf(data),
    })
    return id
  }

  const agent: Agent = {
    id: agentId,
    get status() {
      return state.status
    },
    status$: defer(() =>
      events$.pipe(
        filter((e) => e.type === 'agent/status'),
        map((e) => e.status),
        startWith(state.status),
        distinctUntilChanged(),
      ),
    ),
    get acceptsNextStep() {
      return state.window
    },
    send: (input, sendOptions) => {
      ensureAccepting('send()')
      return sendChecked(input, parseSendOptions(sendOptions, 'send()'), 'send()')
    },
    followup: (input) => sendChecked(input, FOLLOWUP, 'followup()'),
    steer: (input) => sendChecked(input, STEER, 'steer()'),
    inject: (input) => sendChecked(input, INJECT, 'inject()'),
    cancel: (cause, cancelOptions) => {
      const args = parseCancelArgs(cause, cancelOptions)
      if (!finished)
        commands.next({ type: 'cancel', cause: args.cause, keepInbox: args.options.keepInbox === true })
    },
    retry: () => {
      ensureAccepting('retry()')
      if (!canRetry(state)) throw new AgentBusyError('retry()')
      commands.next({ type: 'retry' })
    },
    whenIdle: () =>
      idle.isIdle(state) ? Promise.resolve() : new Promise<void>((resolve) => idle.wait(resolve)),
    dispose: () => {
      if (!finished) commands.next({ type: 'dispose' })
      return completed
    },
    events$,
    transcript$: defer(() => {
      const replay = transcript.events.slice()
      return merge(replay, durable$)
    }),
    session: {
      get events() {
        return transcript.events.slice()
      },
      messages: () => transcript.messages(),
      flush: () => firstValueFrom(flushTranscript(transcript, store), { defaultValue: undefined }),
    },
  }

  const extraPromptSubmit: ((args: PromptSubmitArgs<Agent>) => PromptDecision | undefined)[] = []
  registerExtensions(agent, {
    wakingHumanPrompts: () =>
      fifoToArray(state.queue).filter((item) => itemWakes(item) && isHumanPrompt(itemSource(item))).length,
    addPromptSubmit: (hook) => {
      extraPromptSubmit.push(hook)
      return () => {
        const at = extraPromptSubmit.indexOf(hook)
        if (at >= 0) extraPromptSubmit.splice(at, 1)
      }
    },
  })
  const runEffect = createEffectRunner({
    agent,
    agentId,
    model,
    ...(instructions !== undefined ? { system: instructions } : {}),
    hooks: {
      ...hooks,
      get promptSubmit() {
        const own = hookList(hooks?.promptSubmit)
        return extraPromptSubmit.length === 0 ? own : [...extraPromptSubmit, ...own]
      },
    },
    toolSpecs: toolSpecsOf(tools),
    runTools: createToolBatchRunner({ tools, maxParallel, post: (signal) => signals.next(signal) }),
    transcript,
    store,
    scheduler,
    post: (signal) => signals.next(signal),
    complete: () => {
      finished = true
      sends.complete()
      commands.complete()
      signals.complete()
    },
  })
  effects.observable.pipe(mergeEffects(runEffect)).subscribe((signal) => signals.next(signal))
  // Runs the pipeline; resolves dispose() when it has drained.
  const completed = new Promise<void>((resolve) =>
    reductions$
      .pipe(
        publishOutputs({
          reduced: (r) => {
            state = r.state
          },
          transcript,
          effect: (effect) => effects.next(effect),
          delivered: idle.delivered,
          ended: () => {
            effects.complete()
            idle.end()
          },
        }),
      )
      .subscribe({
        next: (o) => {
          if (published.observed) published.next(o)
        },
        // A defect (the reducer threw). Rethrown when nobody observes, so RxJS reports it
        // (config.onUnhandledError, else an uncaught error) instead of losing it.
        error: (error: unknown) => {
          const observed = published.observed
          published.error(error)
          if (!observed) throw error
        },
        complete: () => {
          published.complete()
          resolve()
        },
      }),
  )
  return agent
}
