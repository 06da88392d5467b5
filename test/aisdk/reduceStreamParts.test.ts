import { describe, expect, it } from 'vitest'
import { initialParts, type PartsInput, reduceStreamParts } from '../../src/aisdk/reduceStreamParts.js'

const part = (value: unknown): PartsInput => Object.freeze({ type: 'part', part: Object.freeze(value) })
const finish = part({ type: 'finish', finishReason: { unified: 'stop', raw: 'end_turn' }, usage: {} })

describe('reduceStreamParts', () => {
  it.each([
    ['a text-delta', part({ type: 'text-delta', id: 't', delta: 'Hi' }), [{ type: 'text', text: 'Hi' }]],
    [
      'a reasoning-delta',
      part({ type: 'reasoning-delta', id: 'r', delta: 'Hm' }),
      [{ type: 'reasoning', text: 'Hm' }],
    ],
    ['an empty delta', part({ type: 'text-delta', id: 't', delta: '' }), []],
    ['a finish without usage totals', finish, [{ type: 'finish', reason: 'stop' }]],
  ])('%s', (_, input, events) => {
    expect(reduceStreamParts(initialParts, input).events).toEqual(events)
  })

  it('parts that say nothing the loop needs return the same state object and no events', () => {
    for (const type of [
      'stream-start',
      'text-start',
      'tool-input-delta',
      'response-metadata',
      'raw',
      'ping',
      'a-future-part',
    ])
      expect(reduceStreamParts(initialParts, part({ type, id: 'x' }))).toEqual({
        state: initialParts,
        events: [],
      })
    expect(reduceStreamParts(initialParts, part({ type: 'ping' })).state).toBe(initialParts)
  })

  it('after finish or a failure every input is ignored, with the same state object', () => {
    const done = reduceStreamParts(initialParts, finish).state
    for (const input of [
      part({ type: 'text-delta', id: 't', delta: 'late' }),
      part({ type: 'error', error: 'x' }),
      { type: 'end' } as const,
    ])
      expect(reduceStreamParts(done, input)).toEqual({ state: done, events: [] })
    expect(reduceStreamParts(done, { type: 'end' }).state).toBe(done)
  })

  it('a part that is not an object, and the end before finish, fail the stream', () => {
    expect(reduceStreamParts(initialParts, part(null)).failure).toEqual({
      kind: 'stream',
      text: 'a stream part that is not an object: null',
    })
    expect(reduceStreamParts(initialParts, { type: 'end' }).failure).toMatchObject({ kind: 'stream' })
  })

  it('a part that throws when read fails the stream with what it threw, as data', () => {
    const thrown = Symbol('getter')
    const hostile = Object.defineProperty({}, 'type', {
      get() {
        throw thrown
      },
    })
    expect(reduceStreamParts(initialParts, part(hostile))).toEqual({
      state: { ...initialParts, done: true },
      events: [],
      failure: { kind: 'unreadable', thrown },
    })
  })
})
