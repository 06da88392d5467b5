/**
 * R2: a refusal shows the right call, not only what was wrong: the message names the fix a
 * caller most likely needs, and lists every bad argument at once.
 */
import { describe, expect, it } from 'vitest'
import { createAgent, InvalidInputError } from '../../src/index.js'
import { scriptedModel } from '../../src/testing.js'

const refusal = (call: () => unknown): string => {
  try {
    call()
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidInputError)
    return (error as Error).message
  }
  throw new Error('expected a refusal')
}

describe('R2: errors that show the right call', () => {
  const agent = createAgent({ model: scriptedModel([]) })

  it("R2, V5: cancel('user') says the cause is {kind: 'user'} or {kind: 'parent'}", () => {
    expect(refusal(() => agent.cancel('user' as never))).toBe(
      `cancel(): cause: expected {kind: 'user'} or {kind: 'parent'} (not the string "user")`,
    )
    expect(refusal(() => agent.cancel({ kind: 'user' }, { keep: true } as never))).toBe(
      'cancel(): options.keep: unknown key; the only option is keepInbox',
    )
  })

  it('R2: send(undefined) names the missing input and the missing options', () => {
    expect(refusal(() => (agent.send as (...a: unknown[]) => unknown)(undefined))).toBe(
      'send(): input: required: a string, or {content, source}; ' +
        "options: required: {target: 'next-turn' | 'next-step', wakeup: boolean}; " +
        'or call followup(), steer() or inject()',
    )
  })

  it('R2: content given as a string, and a string source, say how to send text', () => {
    expect(refusal(() => agent.followup({ content: 'hi', source: { kind: 'user' } } as never))).toMatch(
      /input\.content: expected a non-empty array of blocks .*, not a string; to send plain text, pass the string itself/,
    )
    expect(
      refusal(() => agent.followup({ content: [{ type: 'text', text: 'x' }], source: 'user' } as never)),
    ).toBe(`followup(): input.source: expected an object such as {kind: 'user'} (not the string "user")`)
  })

  it('R2: createAgent names the adapter to pass for a model name, and the option a typo meant', () => {
    expect(refusal(() => createAgent({ model: 'gpt-4o' } as never))).toMatch(
      /options\.model: expected a model adapter, .*openaiModel\(\{ model: "gpt-4o" \}\) from 'steerable\/openai'/,
    )
    expect(refusal(() => createAgent({ model: scriptedModel([]), instruction: 'be brief' } as never))).toBe(
      'createAgent(): options.instruction: unknown key; did you mean instructions?',
    )
    expect(
      refusal(() => createAgent({ model: scriptedModel([]), hooks: { onStep: () => {} } } as never)),
    ).toBe('createAgent(): options.hooks.onStep: unknown key; did you mean step?')
    expect(
      refusal(() => createAgent({ model: scriptedModel([]), hooks: { beforeModel: () => {} } } as never)),
    ).toBe(
      'createAgent(): options.hooks.beforeModel: unknown key; expected one of promptSubmit, step, turnStopping, requestError',
    )
    expect(refusal(() => createAgent({ model: scriptedModel([]), id: 7 } as never))).toBe(
      'createAgent(): options.id: expected a non-empty string, got 7',
    )
  })
})
