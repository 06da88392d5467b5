import {
  defer,
  distinctUntilChanged,
  filter,
  firstValueFrom,
  map,
  merge,
  Observable,
  scan,
  share,
  startWith,
  tap,
} from 'rxjs'
import { AgentBusyError, AgentDisposedError } from '../errors.js'
import type { AgentEvent, SessionEvent } from '../events.js'
import { fifoToArray } from '../inbox/fifo.js'
import { type AcceptedSend, splitSends } from '../inbox/splitSends.js'
import { canRetry } from '../loop/close.js'
import { hookList, type PromptDecision, type PromptSubmitArgs } from '../loop/hooks.js'
import type { Command, Output, Signal } from '../loop/inputs.js'
import { mergeEffects } from '../loop/mergeEffects.js'
import { type Reduction, reduce } from '../loop/reduce.js'
import { createEffectRunner } from '../loop/runEffect.js'
import { type DeliveryState, initialState, isQuiescent, itemMessage, itemWakes } from '../loop/state.js'
import { trampoline } from '../loop/trampoline.js'
import type { AgentMessage, SendInput, SendOptions } from '../messages/types.js'
import { parseCancelArgs, parseSendInput, parseSendOptions } from '../messages/validate.js'
import { isHumanPrompt } from '../session/isHumanPrompt.js'
import { Transcript } from '../session/session.js'
import { flushTranscript, memoryStore } from '../session/store.js'
import { createToolBatchRunner } from '../tools/runToolBatch.js'
import { toolSpecsOf } from '../tools/toolSpecs.js'
import { checkOptions } from './checkOptions.js'
import { registerExtensions } from './extensions.js'
import { checkHistory, closeInterruptedTurn, lastTurnOf } from './history.js'
import { inlet } from './inlet.js'
import { mintMessageId, mintSessionId } from './mint.js'
import type { Agent, AgentOptions } from './types.js'

const FOLLOWUP: SendOptions = Object.freeze({ target: 'next-turn', wakeup: true })
const STEER: SendOptions = Object.freeze({ target: 'next-step', wakeup: true })
const INJECT: SendOptions = Object.freeze({ target: 'next-step', wakeup: false })
const SHARE_FOREVER = { resetOnError: false, resetOnComplete: false, resetOnRefCountZero: false } as const

/**
 * Creates an agent (SPEC section 3). The façade only wires the pipeline:
 *
 * ```text
 * send() ─► sends ─splitSends─► queue / inject ─┐
 * cancel() retry() dispose() ─► commands ────────┼─► trampoline ─► scan(reduce) ─► outputs
 * effect outcomes ─────────────► signals ────────┘                                   │
 *        ▲                                    live ─► events$, durable ─► transcript$ │
 *        └──────────────── effect runner ◄──────────────────── effects ◄──────────────┘
 * ```
 */
export const createAgent = (options: AgentOptions): Agent => {
  const { model, scheduler, instructions, hooks, tools, maxParallel } = checkOptions(options)
  const store = options.store ?? memoryStore()
  const loaded = store.load()
  const history =
    loaded.length > 0 ? loaded : options.history === undefined ? [] : checkHistory(options.history)
  if (loaded.length === 0 && history.length > 0) store.append(history)
  const agentId = options.id ?? mintSessionId()
  const signals = inlet<Signal>()
  const transcript = new Transcript(store, history, (error) => signals.next({ type: 'store/failed', error }))
  for (const draft of closeInterruptedTurn(history)) transcript.append(draft)

  // The design card's shape: sends enter as an Observable and are split by target and wakeup
  // (splitSends: connect + type-guard filters) into the queue and inject streams.
  const sends = inlet<AcceptedSend>()
  const commands = inlet<Command>()
  let state = initialState(agentId, lastTurnOf(history))
  let finished = false

  const idle = idleTracker()
  const reductions$ = merge(
    sends.observable.pipe(splitSends()),
    commands.observable,
    signals.observable,
  ).pipe(
    tap(idle.entered),
    trampoline(),
    scan((acc, input) => reduce(acc.state, input), { state, out: [] as readonly Output[] }),
    tap((r) => {
      state = r.state
    }),
    share(SHARE_FOREVER),
  )
  const output$ = reductions$.pipe(publishOutputs(transcript), share(SHARE_FOREVER))
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
    const data = parseSendInput(input, call)
    const id = mintMessageId()
    sends.next({
      message: Object.freeze({ id, content: data.content, source: data.source }),
      options: sendOptions,
    })
    return id
  }
  const completed = new Promise<void>((resolve) => output$.subscribe({ complete: resolve }))

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
      fifoToArray(state.queue).filter((item) => itemWakes(item) && isHumanPrompt(itemMessage(item).source))
        .length,
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
  output$
    .pipe(mergeEffects((o) => (o.kind === 'effect' ? runEffect(o.effect) : undefined)))
    .subscribe((signal) => signals.next(signal))
  // Last subscriber: sees each reduction after its outputs were delivered.
  reductions$.subscribe(idle.observer)
  return agent
}

/**
 * Emits each reduction's outputs in order, synchronously, without an inner subscription each;
 * a durable draft is appended to the transcript on the way and leaves as its `SessionEvent`.
 */
const publishOutputs =
  (transcript: Transcript) =>
  (source: Observable<{ readonly out: readonly Output[] }>): Observable<Published> =>
    new Observable<Published>((subscriber) =>
      source.subscribe({
        next: (r) => {
          for (const o of r.out)
            subscriber.next(o.kind === 'durable' ? { kind: 'event', event: transcript.append(o.draft) } : o)
        },
        error: (e: unknown) => subscriber.error(e),
        complete: () => subscriber.complete(),
      }),
    )

type Published =
  | Exclude<Output, { readonly kind: 'durable' }>
  | { readonly kind: 'event'; readonly event: SessionEvent }

/**
 * When `whenIdle()` may resolve (R28): the state is quiescent and no input is waiting in the
 * trampoline. A quiescent reduction is not enough: a subscriber of its events may already have
 * queued chained work (a goal continuation reacting to `idle`), which R28 says to follow. Inputs
 * are counted as they enter the pipeline and as their reductions finish delivery; the observer
 * must be the last subscriber of the reductions. Completion resolves the waiters (a disposed agent
 * is idle), and so does an error: `whenIdle()` never rejects.
 */
const idleTracker = () => {
  let entered = 0
  let delivered = 0
  let waiters: (() => void)[] = []
  const release = (): void => {
    const ready = waiters
    waiters = []
    for (const resolve of ready) resolve()
  }
  const isIdle = (s: DeliveryState): boolean => entered === delivered && isQuiescent(s)
  return {
    entered: (): void => {
      entered++
    },
    isIdle,
    wait: (resolve: () => void): void => {
      waiters.push(resolve)
    },
    observer: {
      next: (r: Reduction): void => {
        delivered++
        if (waiters.length > 0 && isIdle(r.state)) release()
      },
      error: release,
      complete: release,
    },
  }
}
