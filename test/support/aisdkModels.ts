/**
 * The AI SDK's test models for the tests of `steerable/ai-sdk`, on whichever AI SDK line they run.
 *
 * The devDependencies install the line of Node 20 (ai 6: `MockLanguageModelV3`, provider interface
 * V3), because the line of Node 22 (ai 7, V4) declares Node 22 and `npm ci` would warn about it on
 * the Node 20 the project supports. `npm run test:ai-sdk-7` runs the same tests with `ai` and
 * `@ai-sdk/*` resolved to that line (scripts/ai-sdk-7/), where `MockLanguageModelV4` is ai 7's own.
 * On ai 6 it is `MockLanguageModelV3` marked `v4`: the stream parts the adapter reads are the same
 * in both versions, and what differs (the media parts of the prompt) is steerable's own output,
 * which the tests check by value.
 */
import * as aiTest from 'ai/test'

export const MockLanguageModelV3 = aiTest.MockLanguageModelV3

class MarkedV4 extends aiTest.MockLanguageModelV3 {
  // @ts-expect-error the V3 model's version is 'v3' to the compiler; marked 'v4', it takes V4's path
  override readonly specificationVersion = 'v4'
}

const own = (aiTest as { readonly MockLanguageModelV4?: typeof MarkedV4 }).MockLanguageModelV4

/** ai 7's `MockLanguageModelV4`, or on ai 6 its stand-in. */
export const MockLanguageModelV4: typeof MarkedV4 = own ?? MarkedV4

/** Which AI SDK line the tests run on: 6 (the devDependencies) or 7 (`npm run test:ai-sdk-7`). */
export const aiSdkLine: 6 | 7 = own === undefined ? 6 : 7
