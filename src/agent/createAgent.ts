import type { Agent } from '../contracts/agent.js'
import type { AgentOptions } from '../contracts/agentOptions.js'
import type { Effect } from '../machine/effects.js'
import { type DeliveryState, initialState } from '../machine/state.js'
import { usageOfLog } from '../machine/usageFold.js'
import { checkAgentOptions } from '../messages/checkAgentOptions.js'
import { mintSessionId } from '../messages/mint.js'
import { Driver } from '../runtime/driver.js'
import type { EngineConfig } from '../runtime/engine.js'
import { HookSet } from '../runtime/hookSet.js'
import { Summarizers } from '../runtime/summarizers.js'
import { boundedStore } from '../session/boundedStore.js'
import { closeInterruptedTurn } from '../session/closeInterruptedTurn.js'
import { lastTurnOf, openHistory } from '../session/history.js'
import { memoryStore } from '../session/memoryStore.js'
import { findPausedTurn } from '../session/pausedTurn.js'
import { Transcript } from '../session/transcript.js'
import { ToolCatalog } from '../tools/toolCatalog.js'
import { AgentFacade } from './agentFacade.js'
import type { AgentParts } from './agentParts.js'
import { autoCompaction, defaultKeep } from './compactHistory.js'
import { restoredState, restoreInbox } from './restoreInbox.js'
import { pausedState } from './restorePause.js'

/**
 * Creates an agent: an LLM agent loop that accepts a followup, a steer or an inject at any moment.
 * Only `model` is required; the pipeline it drives is drawn in docs/architecture.md.
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
export const createAgent = (options: AgentOptions): Agent => openAgent(options, RELEASING)

/** How `openAgent` makes an agent beyond its options: for the tests of the driver. */
export type Opening = {
  /** Release the engine when quiescent (false in the test that compares the two). */
  readonly release: boolean
  /** The reducer, wrapped by the test that records what it produced. */
  readonly reduce?: EngineConfig<Agent>['reduce']
}

const RELEASING: Opening = Object.freeze({ release: true })

/**
 * `createAgent`, with the choice whether the engine is released when the agent is quiescent (the
 * test that compares an agent that releases with one that never does makes the second with it),
 * and of a reducer that records what it produced (the test of `snapshots$`).
 */
export const openAgent = (options: AgentOptions, opening: Opening): Agent => {
  const checked = checkAgentOptions(options)
  const { model, scheduler, instructions, hooks, tools, maxParallel, flushTimeoutMs, maxQueued } = checked
  // The sources' current lists are read now, so two tools with one name fail the creation (R100).
  const toolbox = new ToolCatalog<Agent>(tools)
  const store = boundedStore(options.store ?? memoryStore(), flushTimeoutMs, scheduler)
  const history = openHistory(store, options.history)
  const agentId = options.id ?? mintSessionId()

  // Restore (R37, R51, R65): reopen a paused turn, or close a turn the last process left open;
  // then fold the inbox journal.
  const transcript = new Transcript(store, history)
  const paused = findPausedTurn(history)
  if (paused === undefined) for (const draft of closeInterruptedTurn(history)) transcript.append(draft)
  const restored = restoreInbox(store.inbox?.load() ?? [], transcript.events, paused?.turn)
  for (const draft of restored.appended) transcript.append(draft)
  if (restored.records.length > 0) store.inbox?.append(restored.records)
  const resumed = paused === undefined ? undefined : pausedState(paused, 1)
  const state: DeliveryState = {
    ...initialState(agentId, lastTurnOf(history)),
    ...restoredState(restored),
    ...resumed?.state,
    ...(checked.budget === undefined ? {} : { budget: checked.budget }),
    // The same fold the reducer runs on each event it writes (R73, R80).
    usage: usageOfLog(transcript.events),
    autoCompaction: autoCompaction(checked.compaction),
    journaling: store.inbox !== undefined,
    tools: toolbox.sourced ? { latest: toolbox.latest, step: toolbox.latest } : undefined,
    maxSteps: checked.maxSteps,
    maxRetries: checked.maxRetries,
  }

  const parts: AgentParts = {
    transcript,
    store,
    summarizers: new Summarizers(checked.compaction?.summarize, defaultKeep(checked.compaction)),
    hooks: new HookSet<Agent>(hooks),
    maxQueued,
    maxBlockBytes: checked.maxBlockBytes,
  }
  // The driver is made for the agent (its hooks and tools are given it); only this function
  // holds it besides the agent, to finish opening it.
  let driver: Driver<Agent> | undefined
  const agent = new AgentFacade(agentId, parts, (self) => {
    driver = new Driver<Agent>(
      {
        agent: self,
        agentId,
        model,
        system: instructions,
        hooks: parts.hooks,
        toolbox,
        maxParallel,
        maxBlockBytes: checked.maxBlockBytes,
        approvalTimeoutMs: checked.approvalTimeoutMs,
        scheduler,
        transcript,
        summarizers: parts.summarizers,
        store,
        release: opening.release,
        onError: checked.onError,
        ...(opening.reduce === undefined ? {} : { reduce: opening.reduce }),
      },
      state,
    )
    return driver
  })
  const opened = driver as unknown as Driver<Agent>
  for (const [id, outcome] of restored.settled) opened.outcomes.settle(id, outcome)
  // R51: restored context appended now is flushed like any append outside a turn (R36), and
  // restored waking items wake the driver once this call has returned (R6).
  const owed: Effect[] = []
  if (restored.appended.length > 0) owed.push({ kind: 'persist' })
  if (state.wakeScheduled) owed.push({ kind: 'schedule', input: { type: 'wake' } })
  if (resumed) owed.push(...resumed.owed)
  opened.start(owed)
  return agent
}
