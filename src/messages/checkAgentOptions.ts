import { asapScheduler, queueScheduler } from 'rxjs'
import type { AgentOptions } from '../contracts/agentOptions.js'
import { checkInput, type FieldRule, type FieldRules } from './checkInput.js'
import { checkTools } from './checkTools.js'
import { describeValue } from './describeValue.js'
import { didYouMean } from './didYouMean.js'
import { nonEmptyString, optional, timeoutMs, wholeNumber } from './fieldRules.js'
import { DEFAULT_MAX_BLOCK_BYTES } from './mediaBlocks.js'
import { budgetRule } from './parseBudget.js'
import { compactionRule } from './parseCompactOptions.js'

/** How long a store's `flush()` may take by default before it counts as failed. */
export const DEFAULT_FLUSH_TIMEOUT_MS = 30_000

const HOOK_NAMES: readonly string[] = ['promptSubmit', 'step', 'turnStopping', 'requestError']

const model: FieldRule = (value) => {
  if (typeof value === 'function') return undefined
  const example =
    typeof value === 'string' ? `openaiModel({ model: ${JSON.stringify(value)} })` : 'openaiModel({...})'
  return (
    `expected a model adapter, a function (request) => stream of model events, such as ${example} ` +
    "from 'steerable/openai' or scriptedModel([...]) from 'steerable/testing'"
  )
}

const scheduler: FieldRule = (value) =>
  value === queueScheduler
    ? 'queueScheduler runs work at schedule time, which breaks the deferred wake (R6); use asapScheduler'
    : undefined

const hooks: FieldRule = (value, path, check) => {
  if (value === undefined) return undefined
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return `expected an object of hooks by name (${HOOK_NAMES.join(', ')}), each a function or an array of them`
  for (const [name, hook] of Object.entries(value)) {
    if (!HOOK_NAMES.includes(name)) check.add([...path, name], didYouMean(name, HOOK_NAMES))
    else if (!(Array.isArray(hook) ? hook : [hook]).every((h) => typeof h === 'function'))
      check.add([...path, name], 'expected a function or an array of functions')
  }
  return undefined
}

/** The most steps of a turn when neither the agent nor its followup says (R116). */
export const DEFAULT_MAX_STEPS = 50
/** How many times a retryable request failure is retried when the agent does not say (R117). */
export const DEFAULT_MAX_RETRIES = 2

/** A step cap: a whole number, 1 or more, or `Infinity` for none (R81, R116). */
export const stepCap =
  (hint: string): FieldRule =>
  (value, path, check) =>
    value === Number.POSITIVE_INFINITY ? undefined : wholeNumber(1, hint)(value, path, check)

const onError: FieldRule = (value) =>
  value === false || typeof value === 'function'
    ? undefined
    : `expected a function (event) => void, or false to report nothing, got ${describeValue(value)}`

/** Every option, by name; the ones without a check (`store`, `history`) take anything here. */
const OPTIONS: FieldRules = {
  model,
  instructions: (v) => (v === undefined || typeof v === 'string' ? undefined : 'expected string'),
  id: optional(nonEmptyString()),
  hooks,
  tools: checkTools,
  maxParallelToolCalls: optional(wholeNumber(1, 'how many tool calls run at once; 4 when left out')),
  maxQueued: optional(wholeNumber(1, 'leave it out for no bound')),
  store: () => undefined,
  flushTimeoutMs: optional(timeoutMs('Infinity waits forever')),
  history: () => undefined,
  scheduler,
  approvalTimeoutMs: optional(timeoutMs('leave it out for no limit')),
  budget: budgetRule,
  compaction: compactionRule(true),
  maxBlockBytes: optional(wholeNumber(1, 'a number of bytes; leave it out for 20 MiB')),
  maxSteps: optional(stepCap('or Infinity for no cap; 50 when left out')),
  maxRetries: optional(wholeNumber(0, '0 for none; 2 when left out')),
  onError: optional(onError),
}
const OPTION_KEYS = Object.keys(OPTIONS)

/**
 * `createAgent` options, checked all at once: one `InvalidInputError` lists every problem. Returns
 * them with their defaults filled in.
 */
export const checkAgentOptions = (options: AgentOptions) => {
  checkInput('createAgent()', (check) => {
    if (typeof options !== 'object' || options === null)
      return check.add(
        ['options'],
        "expected an object such as { model: openaiModel({ model: 'gpt-4o-mini' }) }",
      )
    check.knownKeys(options, OPTION_KEYS, ['options'])
    check.fields(options, ['options'], OPTIONS)
  })
  return {
    model: options.model,
    scheduler: options.scheduler ?? asapScheduler,
    instructions: options.instructions,
    hooks: options.hooks,
    tools: options.tools ?? [],
    maxParallel: options.maxParallelToolCalls ?? 4,
    flushTimeoutMs: options.flushTimeoutMs ?? DEFAULT_FLUSH_TIMEOUT_MS,
    maxQueued: options.maxQueued,
    approvalTimeoutMs: options.approvalTimeoutMs,
    budget: options.budget,
    compaction: options.compaction,
    maxBlockBytes: options.maxBlockBytes ?? DEFAULT_MAX_BLOCK_BYTES,
    // Infinity is no cap: the state holds none (R116).
    maxSteps:
      options.maxSteps === Number.POSITIVE_INFINITY ? undefined : (options.maxSteps ?? DEFAULT_MAX_STEPS),
    maxRetries: options.maxRetries ?? DEFAULT_MAX_RETRIES,
    onError: options.onError,
  }
}
