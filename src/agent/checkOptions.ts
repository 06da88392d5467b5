import { asapScheduler, queueScheduler } from 'rxjs'
import type { AgentOptions } from '../contracts/agentOptions.js'
import { type InputIssue, InvalidInputError } from '../contracts/errors.js'
import { checkTools } from '../tools/toolSpecs.js'

/** How long a store's `flush()` may take by default before it counts as failed. */
export const DEFAULT_FLUSH_TIMEOUT_MS = 30_000

/** `createAgent` options, checked all at once: one `InvalidInputError` lists every problem. */
export const checkOptions = (options: AgentOptions) => {
  const issues: InputIssue[] = []
  if (typeof options !== 'object' || options === null) {
    throw new InvalidInputError('createAgent()', [{ path: ['options'], message: 'expected an object' }])
  }
  if (typeof options.model !== 'function')
    issues.push({ path: ['options', 'model'], message: 'expected a function' })
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
  const flushTimeoutMs = options.flushTimeoutMs ?? DEFAULT_FLUSH_TIMEOUT_MS
  if (typeof flushTimeoutMs !== 'number' || !(flushTimeoutMs > 0)) {
    issues.push({
      path: ['options', 'flushTimeoutMs'],
      message: 'expected a number of milliseconds > 0 (Infinity waits forever)',
    })
  }
  if (issues.length > 0) throw new InvalidInputError('createAgent()', issues)
  return {
    model: options.model,
    scheduler,
    instructions: options.instructions,
    hooks: options.hooks,
    tools,
    maxParallel,
    flushTimeoutMs,
  }
}
