/** The checks of the `compaction` option of `createAgent` and of `compact(options)` (R74–R76). */
import type { CompactOptions } from '../contracts/compaction.js'
import { checkInput, type FieldRule, type FieldRules } from './checkInput.js'
import { aFunction, optional, wholeNumber } from './fieldRules.js'

const tokens: FieldRule = (n) =>
  typeof n === 'number' && Number.isFinite(n) && n > 0 ? undefined : 'expected a number of tokens above 0'

const rulesOf = (auto: boolean): FieldRules => ({
  keepLastTurns: optional(wholeNumber(0, 'how many of the last turns are kept as they are')),
  summarize: optional(aFunction('(messages, {signal}) => summary text; leave it out for the default')),
  whenInputTokensExceed: auto
    ? optional(tokens)
    : optional(() => 'set it in createAgent({compaction}); compact() compacts now'),
})
const AGENT_RULES = rulesOf(true)
const CALL_RULES = rulesOf(false)

/**
 * The `compaction` option of `createAgent` (`auto`: it may set `whenInputTokensExceed`), or the
 * options of `compact()`.
 */
export const compactionRule =
  (auto: boolean): FieldRule =>
  (options, path, check) => {
    if (options === undefined) return undefined
    if (typeof options !== 'object' || options === null || Array.isArray(options))
      return `expected an object {keepLastTurns?, summarize?${auto ? ', whenInputTokensExceed?' : ''}}`
    const rules = auto ? AGENT_RULES : CALL_RULES
    check.knownKeys(options, Object.keys(rules), path)
    check.fields(options, path, rules)
    return undefined
  }
const callOptions = compactionRule(false)

/** `compact(options)`, checked: bad options throw `InvalidInputError` and change nothing. */
export const checkCompact = (options: unknown): CompactOptions =>
  checkInput('compact()', (check) => {
    check.field(options, ['options'], callOptions)
    return (options ?? {}) as CompactOptions
  })
