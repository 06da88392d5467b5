/**
 * R2: input whose reading runs caller code that throws (a getter, a Proxy trap) is bad input like
 * any other: `InvalidInputError` naming the call and the path, no id, no event, no state change.
 * And a refusal's message stays short however many issues the input has.
 */
import { describe, expect, it } from 'vitest'
import { createAgent, InvalidInputError } from '../../src/index.js'
import { scriptedModel } from '../../src/testing.js'
import { setup } from '../support/agents.js'

const throwing = (what: unknown) => ({
  get() {
    throw what
  },
  enumerable: true,
})
const withGetter = (key: string, what: unknown = new Error('getter')) =>
  Object.defineProperty({}, key, throwing(what))
const revoked = () => {
  const { proxy, revoke } = Proxy.revocable({}, {})
  revoke()
  return proxy
}
const trapThrows = (trap: 'get' | 'ownKeys' | 'getPrototypeOf') =>
  new Proxy(
    { content: [{ type: 'text', text: 'x' }], source: { kind: 'user' } },
    {
      [trap]: () => {
        throw Object.create(null)
      },
    },
  )

const cases: readonly [string, () => unknown, string][] = [
  ['a getter on input.content', () => withGetter('content'), 'input'],
  ['a getter on a block text', () => ({ content: [withGetter('text')], source: { kind: 'user' } }), 'input'],
  [
    'a getter on the source kind, throwing a revoked Proxy',
    () => ({ content: [{ type: 'text', text: 'x' }], source: withGetter('kind', revoked()) }),
    'input',
  ],
  ['a revoked Proxy as the input', revoked, 'input'],
  ['a Proxy whose get trap throws', () => trapThrows('get'), 'input'],
  [
    'a source Proxy whose ownKeys trap throws',
    () => ({ content: [{ type: 'text', text: 'x' }], source: trapThrows('ownKeys') }),
    'input',
  ],
  ['a Proxy whose getPrototypeOf trap throws', () => trapThrows('getPrototypeOf'), 'input'],
]

describe('R2: a getter or Proxy trap that throws is refused as InvalidInputError', () => {
  it.each(cases)('R2: %s', (_name, make, path) => {
    const { agent, rec } = setup()
    for (const send of [
      () => agent.followup(make() as string),
      () => agent.steer(make() as string),
      () => agent.inject(make() as string),
      () => agent.send(make() as string, { target: 'next-turn', wakeup: true }),
    ]) {
      let error: unknown
      try {
        send()
      } catch (e) {
        error = e
      }
      expect(error).toBeInstanceOf(InvalidInputError)
      expect((error as InvalidInputError).message).toMatch(/could not be read \(a getter or Proxy trap threw/)
      expect((error as InvalidInputError).issues[0]?.path[0]).toBe(path)
    }
    expect(rec.log).toEqual([])
    expect(agent.session.events).toEqual([])
  })

  it('R2: send options and cancel arguments whose reading throws', () => {
    const { agent, rec } = setup()
    expect(() => agent.send('x', trapThrows('get') as never)).toThrow(InvalidInputError)
    expect(() => agent.send('x', withGetter('target') as never)).toThrow(
      /send\(\): options: could not be read/,
    )
    expect(() => agent.cancel(withGetter('kind') as never)).toThrow(/cancel\(\): cause: could not be read/)
    expect(() => agent.cancel({ kind: 'user' }, revoked() as never)).toThrow(InvalidInputError)
    expect(rec.log).toEqual([])
  })
})

describe('R2: the message of a refusal lists a few issues and says how many more', () => {
  it('R2: twenty thousand bad blocks', () => {
    const { agent, rec } = setup()
    const content = Array.from({ length: 20_000 }, () => ({ type: 'video', url: 'x' }))
    let error: InvalidInputError | undefined
    try {
      agent.followup({ content, source: { kind: 'user' } } as never)
    } catch (e) {
      error = e as InvalidInputError
    }
    expect(error).toBeInstanceOf(InvalidInputError)
    expect(error?.message.length).toBeLessThan(2_000)
    expect(error?.message).toMatch(/^followup\(\): input\.content\[0\]\.type: unknown block type "video"/)
    expect(error?.message).toMatch(/; and 19990 more issues$/)
    expect(error?.issueCount).toBe(20_000)
    expect(error?.issues).toHaveLength(100)
    expect(rec.log).toEqual([])
  })
})

describe('R2, R37: a history whose reading throws', () => {
  it('R37: createAgent({history}) with a revoked Proxy or a throwing getter is InvalidInputError', () => {
    const { proxy, revoke } = Proxy.revocable([], {})
    revoke()
    for (const history of [proxy, [withGetter('seq')]]) {
      expect(() => createAgent({ model: scriptedModel([]), history: history as never })).toThrow(
        /^createAgent\(\): options\.history(\[0\])?: /,
      )
      expect(() => createAgent({ model: scriptedModel([]), history: history as never })).toThrow(
        InvalidInputError,
      )
    }
  })
})
