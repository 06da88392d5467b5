/**
 * The compaction types a user writes against come from the package's entry: a summariser of their
 * own, the options of `compact()` and of `createAgent({compaction})`, and the result they get back.
 */
import { describe, expectTypeOf, it } from 'vitest'
import type {
  Agent,
  AgentOptions,
  CompactionEndEvent,
  CompactionOptions,
  CompactionResult,
  CompactOptions,
  Summarizer,
} from '../../src/index.js'

describe('R74: the compaction types are public', () => {
  it('R74: compact() takes CompactOptions and resolves to a CompactionResult', () => {
    expectTypeOf<Agent['compact']>().parameter(0).toEqualTypeOf<CompactOptions | undefined>()
    expectTypeOf<Agent['compact']>().returns.toEqualTypeOf<Promise<CompactionResult>>()
    expectTypeOf<CompactionEndEvent['result']>().toEqualTypeOf<CompactionResult>()
  })

  it('R76: the agent option compaction is CompactionOptions, whose summariser is a Summarizer', () => {
    expectTypeOf<NonNullable<AgentOptions['compaction']>>().toEqualTypeOf<CompactionOptions>()
    expectTypeOf<NonNullable<CompactOptions['summarize']>>().toEqualTypeOf<Summarizer>()
  })
})
