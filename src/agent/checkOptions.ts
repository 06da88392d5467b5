import { asapScheduler, queueScheduler } from 'rxjs'
import type { AgentOptions } from '../contracts/agentOptions.js'
import { type InputIssue, InvalidInputError } from '../contracts/errors.js'
import { didYouMean } from '../messages/hints.js'
import { DEFAULT_MAX_BLOCK_BYTES } from '../messages/mediaBlocks.js'
import { checkTools, isTimeout } from '../tools/toolSpecs.js'
import { compactionIssues } from './compactHistory.js'
import { checkBudget } from './humanInTheLoop.js'

/** How long a store's `flush()` may take by default before it counts as failed. */
export const DEFAULT_FLUSH_TIMEOUT_MS = 30_000

const OPTION_KEYS: readonly string[] = [
  'model',
  'instructions',
  'id',
  'hooks',
  'tools',
  'maxParallelToolCalls',
  'maxQueued',
  'store',
  'flushTimeoutMs',
  'history',
  'scheduler',
  'approvalTimeoutMs',
  'budget',
  'compaction',
  'maxBlockBytes',
]
const HOOK_NAMES: readonly string[] = ['promptSubmit', 'step', 'turnStopping', 'requestError']

const modelIssue = (model: unknown): string => {
  const example =
    typeof model === 'string' ? `openaiModel({ model: ${JSON.stringify(model)} })` : 'openaiModel({...})'
  return (
    `expected a model adapter, a function (request) => stream of model events, such as ${example} ` +
    "from 'steerable/openai' or scriptedModel([...]) from 'steerable/testing'"
  )
}

/** `createAgent` options, checked all at once: one `InvalidInputError` lists every problem. */
export const checkOptions = (options: AgentOptions) => {
  const issues: InputIssue[] = []
  if (typeof options !== 'object' || options === null) {
    throw new InvalidInputError('createAgent()', [{ path: ['options'], message: 'expected an object' }])
  }
  for (const key of Object.keys(options))
    if (!OPTION_KEYS.includes(key))
      issues.push({ path: ['options', key], message: didYouMean(key, OPTION_KEYS) })
  if (typeof options.model !== 'function')
    issues.push({ path: ['options', 'model'], message: modelIssue(options.model) })
  if (options.id !== undefined && (typeof options.id !== 'string' || options.id === ''))
    issues.push({ path: ['options', 'id'], message: 'expected a non-empty string' })
  if (options.instructions !== undefined && typeof options.instructions !== 'string') {
    issues.push({ path: ['options', 'instructions'], message: 'expected string' })
  }
  const scheduler = options.scheduler ?? asapScheduler
  if (scheduler === queueScheduler) {
    issues.push({
      path: ['options', 'scheduler'],
      message:
        'queueScheduler runs work at schedule time, which breaks the deferred wake (R6); use asapScheduler',
    })
  }
  for (const [name, hook] of Object.entries(options.hooks ?? {})) {
    if (!HOOK_NAMES.includes(name)) {
      issues.push({ path: ['options', 'hooks', name], message: didYouMean(name, HOOK_NAMES) })
      continue
    }
    const hooks: unknown[] = Array.isArray(hook) ? hook : [hook]
    if (!hooks.every((h) => typeof h === 'function')) {
      issues.push({
        path: ['options', 'hooks', name],
        message: 'expected a function or an array of functions',
      })
    }
  }
  const tools = options.tools ?? []
  issues.push(...checkTools(tools))
  const maxParallel = options.maxParallelToolCalls ?? 4
  if (!Number.isInteger(maxParallel) || maxParallel < 1) {
    issues.push({ path: ['options', 'maxParallelToolCalls'], message: 'expected an integer >= 1' })
  }
  const maxQueued = options.maxQueued
  if (maxQueued !== undefined && (!Number.isInteger(maxQueued) || maxQueued < 1))
    issues.push({
      path: ['options', 'maxQueued'],
      message: 'expected an integer >= 1 (leave it out for no bound)',
    })
  const flushTimeoutMs = options.flushTimeoutMs ?? DEFAULT_FLUSH_TIMEOUT_MS
  if (typeof flushTimeoutMs !== 'number' || !(flushTimeoutMs > 0)) {
    issues.push({
      path: ['options', 'flushTimeoutMs'],
      message: 'expected a number of milliseconds > 0 (Infinity waits forever)',
    })
  }
  const approvalTimeoutMs = options.approvalTimeoutMs
  if (approvalTimeoutMs !== undefined && !isTimeout(approvalTimeoutMs))
    issues.push({
      path: ['options', 'approvalTimeoutMs'],
      message: 'expected a number of milliseconds > 0 (leave it out for no limit)',
    })
  const maxBlockBytes = options.maxBlockBytes ?? DEFAULT_MAX_BLOCK_BYTES
  if (!Number.isInteger(maxBlockBytes) || maxBlockBytes < 1)
    issues.push({
      path: ['options', 'maxBlockBytes'],
      message: 'expected an integer number of bytes >= 1 (leave it out for 20 MiB)',
    })
  issues.push(...checkBudget(options.budget))
  issues.push(...compactionIssues(options.compaction, ['options', 'compaction'], true))
  if (issues.length > 0) throw new InvalidInputError('createAgent()', issues)
  return {
    model: options.model,
    scheduler,
    instructions: options.instructions,
    hooks: options.hooks,
    tools,
    maxParallel,
    flushTimeoutMs,
    maxQueued,
    approvalTimeoutMs,
    budget: options.budget,
    compaction: options.compaction,
    maxBlockBytes,
  }
}
