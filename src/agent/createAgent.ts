import { defer, distinctUntilChanged, filter, firstValueFrom, map, merge, scan, startWith } from 'rxjs'
import type { Agent } from '../contracts/agent.js'
import type { AgentOptions } from '../contracts/agentOptions.js'
import { AgentBusyError, AgentDisposedError } from '../contracts/errors.js'
import type { AgentMessage, SendInput, SendOptions } from '../contracts/messages.js'
import { canRetry } from '../machine/betweenTurns.js'
import { isCloseStore } from '../machine/dispose.js'
import type { Effect } from '../machine/effects.js'
import { fifoToArray } from '../machine/fifo.js'
import type { Command, Signal } from '../machine/inputs.js'
import type { Output } from '../machine/outputs.js'
import { reduce } from '../machine/reduce.js'
import { initialState, itemSource, itemWakes } from '../machine/state.js'
import { mintSessionId } from '../messages/mint.js'
import { parseCancelArgs } from '../messages/validate.js'
import { createEffectRunner } from '../runtime/effectRunner.js'
import { extendAgent } from '../runtime/extensions.js'
import { idleTracker } from '../runtime/idleTracker.js'
import { inlet } from '../runtime/inlet.js'
import { mergeEffects } from '../runtime/mergeEffects.js'
import { publishOutputs, sharedOutputs } from '../runtime/publishOutputs.js'
import { createToolBatchRunner } from '../runtime/runToolBatch.js'
import { type AcceptedSend, splitSends } from '../runtime/splitSends.js'
import { trampoline } from '../runtime/trampoline.js'
import { boundedStore } from '../session/boundedStore.js'
import { closeInterruptedTurn } from '../session/closeInterruptedTurn.js'
import { flushTranscript } from '../session/flush.js'
import { lastTurnOf, openHistory } from '../session/history.js'
import { isHumanPrompt } from '../session/isHumanPrompt.js'
import { memoryStore } from '../session/memoryStore.js'
import { Transcript } from '../session/transcript.js'
import { toolSpecsOf } from '../tools/toolSpecs.js'
import { acceptSend, checkSendOptions, FOLLOWUP, INJECT, STEER } from './acceptSend.js'
import { checkOptions } from './checkOptions.js'

/**
 * Creates an agent: an LLM agent loop that accepts a followup, a steer or an inject at any moment.
 * Only `model` is required; the pipeline it wires is drawn in docs/architecture.md.
 *
 * @example
 * import { createAgent } from 'steerable'
 * import { openaiModel } from 'steerable/openai'
 *
 * const model = openaiModel({ model: 'gpt-4o-mini', apiKey: process.env.OPENAI_API_KEY })
 * const agent = createAgent({ model, instructions: 'Be brief.' })
 * agent.followup('Hello')
 * await agent.whenIdle()
 * @throws InvalidInputError when an option is invalid (every problem is listed).
 */
export const createAgent = (options: AgentOptions): Agent => {
  const { model, scheduler, instructions, hooks, tools, maxParallel, flushTimeoutMs } = checkOptions(options)
  const store = boundedStore(options.store ?? memoryStore(), flushTimeoutMs, scheduler)
  const history = openHistory(store, options.history)
  const agentId = options.id ?? mintSessionId()
  const idle = idleTracker()
  // Inputs are counted as they enter the pipeline (whenIdle waits for their delivery).
  const signals = inlet<Signal>(idle.entered)
  const transcript = new Transcript(store, history, (error) => signals.next({ type: 'store/failed', error }))
  for (const draft of closeInterruptedTurn(history)) transcript.append(draft)

  // The contract's shape: sends enter as an Observable and are split by target and wakeup
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
    trampoline(isCloseStore),
    scan((acc, input) => reduce(acc.state, input), { state, out: [] as readonly Output[] }),
  )
  const effects = inlet<Effect>()
  const { observer, completed, events$, durable$ } = sharedOutputs()
  const ensureAccepting = (call: string): void => {
    if (finished) throw new AgentDisposedError(call)
  }
  const sendChecked = (input: SendInput, sendOptions: SendOptions, call: string): AgentMessage['id'] => {
    ensureAccepting(call)
    const accepted = acceptSend(input, sendOptions, call)
    sends.next(accepted)
    return accepted.message.id
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
      return sendChecked(input, checkSendOptions(input, sendOptions), 'send()')
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
        return transcript.eventsCopy()
      },
      messages: () => transcript.messages(),
      flush: () => firstValueFrom(flushTranscript(transcript, store), { defaultValue: undefined }),
    },
  }

  const agentHooks = extendAgent(
    agent,
    hooks,
    () =>
      fifoToArray(state.queue).filter((item) => itemWakes(item) && isHumanPrompt(itemSource(item))).length,
  )
  const runEffect = createEffectRunner({
    agent,
    agentId,
    model,
    ...(instructions !== undefined ? { system: instructions } : {}),
    hooks: agentHooks,
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
  // Runs the pipeline; `completed` (what dispose() returns) resolves when it has drained.
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
    .subscribe(observer)
  return agent
}
