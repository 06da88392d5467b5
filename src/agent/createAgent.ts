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
import { type DeliveryState, initialState, itemSource, itemWakes } from '../machine/state.js'
import { holds } from '../machine/waiting.js'
import { mintSessionId } from '../messages/mint.js'
import { parseCancelArgs, parsePresetOptions } from '../messages/validate.js'
import { createEffectRunner } from '../runtime/effectRunner.js'
import { extendAgent } from '../runtime/extensions.js'
import { idleTracker } from '../runtime/idleTracker.js'
import { InboxSnapshots } from '../runtime/inboxSnapshots.js'
import { inlet } from '../runtime/inlet.js'
import { mergeEffects } from '../runtime/mergeEffects.js'
import { Outcomes } from '../runtime/outcomes.js'
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
import { remoteSends } from './acceptRemote.js'
import { acceptSend, checkSendOptions, FOLLOWUP, INJECT, STEER } from './acceptSend.js'
import { remoteEdits } from './applyRemoteEdit.js'
import { checkOptions } from './checkOptions.js'
import { inboxControl } from './inboxControl.js'
import { restoredState, restoreInbox } from './restoreInbox.js'
import { checkSendPolicy, type PendingSends } from './sendPolicy.js'

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
  const { model, scheduler, instructions, hooks, tools, maxParallel, flushTimeoutMs, maxQueued } =
    checkOptions(options)
  const store = boundedStore(options.store ?? memoryStore(), flushTimeoutMs, scheduler)
  const history = openHistory(store, options.history)
  const agentId = options.id ?? mintSessionId()
  const idle = idleTracker()
  // Inputs are counted as they enter the pipeline (whenIdle waits for their delivery).
  const signals = inlet<Signal>(idle.entered)
  const transcript = new Transcript(store, history, (error) => signals.next({ type: 'store/failed', error }))
  for (const draft of closeInterruptedTurn(history)) transcript.append(draft)
  const restored = restoreInbox(store.inbox?.load() ?? [], transcript.events)
  for (const draft of restored.appended) transcript.append(draft)
  if (restored.records.length > 0) store.inbox?.append(restored.records)

  // The contract's shape: sends enter as an Observable and are split by target and wakeup
  // (splitSends: connect + type-guard filters) into the queue and inject streams.
  const sends = inlet<AcceptedSend>(idle.entered)
  const commands = inlet<Command>(idle.entered)
  let state: DeliveryState = {
    ...initialState(agentId, lastTurnOf(history)),
    ...restoredState(restored),
    journaling: store.inbox !== undefined,
  }
  let finished = false
  const pending: PendingSends = { queued: 0, waking: 0 }
  const snapshots = new InboxSnapshots(() => state)
  const outcomes = new Outcomes(
    () => transcript.events,
    (id) => holds(state, id),
  )
  for (const [id, outcome] of restored.settled) outcomes.settle(id, outcome)

  const reductions$ = merge(
    sends.observable.pipe(splitSends()),
    commands.observable,
    signals.observable,
  ).pipe(
    trampoline(isCloseStore),
    scan(
      (acc, input) => {
        // A send leaves the trampoline: it no longer counts as pending for ifBusy and maxQueued.
        if (input.type === 'queue') {
          pending.queued--
          if (input.wakeup) pending.waking--
        }
        return reduce(acc.state, input)
      },
      { state, out: [] as readonly Output[] },
    ),
  )
  const effects = inlet<Effect>()
  const { observer, completed, events$, durable$ } = sharedOutputs()
  const ensureAccepting = (call: string): void => {
    if (finished) throw new AgentDisposedError(call)
  }
  const sendChecked = (input: SendInput, sendOptions: SendOptions, call: string): AgentMessage['id'] => {
    ensureAccepting(call)
    // The plain presets skip the policy unless a bound is set (the hot path of a send).
    const plain = sendOptions === FOLLOWUP || sendOptions === STEER || sendOptions === INJECT
    if (!plain || maxQueued !== undefined) checkSendPolicy(state, pending, sendOptions, maxQueued, call)
    const accepted = acceptSend(input, sendOptions, call)
    enterSend(accepted)
    return accepted.message.id
  }
  /** A send enters the pipeline; until it is reduced it counts as pending (ifBusy, maxQueued). */
  const enterSend = (accepted: AcceptedSend): void => {
    if (accepted.options.target === 'next-turn' || accepted.options.wakeup) {
      pending.queued++
      if (accepted.options.wakeup) pending.waking++
    }
    sends.next(accepted)
  }
  const control = inboxControl({ command: (command) => commands.next(command), finished: () => finished })

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
    followup: (input, presetOptions) =>
      sendChecked(input, parsePresetOptions(presetOptions, FOLLOWUP, 'followup()'), 'followup()'),
    steer: (input, presetOptions) =>
      sendChecked(input, parsePresetOptions(presetOptions, STEER, 'steer()'), 'steer()'),
    inject: (input, presetOptions) =>
      sendChecked(input, parsePresetOptions(presetOptions, INJECT, 'inject()'), 'inject()'),
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
    get inbox() {
      return snapshots.current()
    },
    inbox$: snapshots.snapshots$,
    // A microtask later: a send made inside a delivery has been processed by then (it waited in
    // the trampoline), so its id is known.
    outcome: (id) => Promise.resolve().then(() => outcomes.outcome(id)),
    ...control,
  }

  const acceptRemote = remoteSends({
    finished: () => finished,
    known: (id) => outcomes.knows(id),
    checkPolicy: (sendOptions) => checkSendPolicy(state, pending, sendOptions, maxQueued, 'send()'),
    enter: enterSend,
    refuse: (id, error) => commands.next({ type: 'refuse', id, error }),
  })
  const agentHooks = extendAgent(
    agent,
    hooks,
    () =>
      fifoToArray(state.queue).filter((item) => itemWakes(item) && isHumanPrompt(itemSource(item))).length,
    acceptRemote,
    remoteEdits(agent, () => finished),
    () => {
      if (!finished) commands.next({ type: 'dispose', keepInbox: true })
      return completed
    },
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
        outcomes,
        effect: (effect) => effects.next(effect),
        delivered: (r) => {
          idle.delivered(r)
          snapshots.delivered()
        },
        ended: () => {
          effects.complete()
          idle.end()
          snapshots.complete()
        },
      }),
    )
    .subscribe(observer)
  // R51: restored context appended now is flushed like any append outside a turn (R36), and
  // restored waking items wake the driver once this call has returned (R6).
  if (restored.appended.length > 0) effects.next({ kind: 'persist' })
  if (state.wakeScheduled) effects.next({ kind: 'schedule', input: { type: 'wake' } })
  return agent
}
