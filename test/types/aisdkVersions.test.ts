/**
 * R87 in the compiler: `steerable/ai-sdk`'s own model and call-settings types take a model and
 * its call settings of either provider interface `npm i ai` may install. V3 (`@ai-sdk/provider`
 * 3.x, ai 6 on Node 20) is the devDependencies' and is checked here; V4 (4.x, ai 7 on Node 22)
 * declares Node 22, so `npm run test:ai-sdk-7` checks it against the same types. The published
 * declarations are checked against both releases after the build by scripts/checkAiSdkTypes.ts.
 */

import type { LanguageModelV3, LanguageModelV3CallOptions } from '@ai-sdk/provider'
import { describe, expectTypeOf, it } from 'vitest'
import type { FromLanguageModelOptions, LanguageModel } from '../../src/aisdk.js'

type Settings<T> = Omit<T, 'prompt' | 'tools' | 'abortSignal'>
type CallOptions = NonNullable<FromLanguageModelOptions['callOptions']>

describe('R87: the AI SDK types follow the installed release', () => {
  it('R87: a V3 model and its call settings fit', () => {
    expectTypeOf<LanguageModelV3>().toExtend<LanguageModel>()
    expectTypeOf<Settings<LanguageModelV3CallOptions>>().toExtend<CallOptions>()
  })

  it('R87: a model id string is not a model', () => {
    expectTypeOf<string>().not.toExtend<LanguageModel>()
  })
})
