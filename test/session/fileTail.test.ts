/** Table tests of `fileTail.ts`: the tail of a file written behind its appends (R35, R40). */
import { describe, expect, it } from 'vitest'
import {
  type FileTail,
  type FileTailEvent,
  fileTail,
  nextFileTail,
  PIECE,
} from '../../src/session/fileTail.js'
import { deepFreeze } from '../support/deepFreeze.js'

/** Text as pieces: a string is one piece ('' is none); an array is the pieces themselves. */
const pieces = (text: string | readonly string[]): readonly string[] =>
  typeof text === 'string' ? (text === '' ? [] : [text]) : text
const tail = (end: number, buffered: string | readonly string[], writing?: string): FileTail =>
  deepFreeze({
    end,
    buffered: pieces(buffered),
    writing: writing === undefined ? undefined : pieces(writing),
  })
const append = (text: string): FileTailEvent => deepFreeze({ type: 'append', text })
const write: FileTailEvent = deepFreeze({ type: 'write' })
const written = (bytes: number): FileTailEvent => deepFreeze({ type: 'written', bytes })
const failed: FileTailEvent = deepFreeze({ type: 'failed' })

type Row = readonly [name: string, before: FileTail, event: FileTailEvent, after: FileTail]

describe('nextFileTail', () => {
  const rows: readonly Row[] = [
    ['R35: an append is buffered after what is buffered', tail(3, 'a\n'), append('b\n'), tail(3, 'a\nb\n')],
    [
      'R35: an append during a write is buffered behind it',
      tail(3, '', 'a\n'),
      append('b\n'),
      tail(3, 'b\n', 'a\n'),
    ],
    ['R36: a write takes everything buffered, at the end', tail(3, 'a\nb\n'), write, tail(3, '', 'a\nb\n')],
    ['R36: a write of nothing is a write (it still fsyncs)', tail(3, ''), write, tail(3, '', '')],
    [
      'R36: a write that is durable moves the end by its bytes',
      tail(3, 'c\n', 'ä\n'),
      written(3),
      tail(6, 'c\n'),
    ],
    [
      'R40: a failed write puts its text back in front of what came meanwhile, at the same end',
      tail(3, 'c\n', 'a\nb\n'),
      failed,
      tail(3, ['a\nb\n', 'c\n']),
    ],
    [
      'R36: an append that would grow the last piece past PIECE characters starts a new piece',
      tail(3, 'x'.repeat(PIECE - 1)),
      append('ab'),
      tail(3, ['x'.repeat(PIECE - 1), 'ab']),
    ],
    [
      'R36: an append that fits the last piece joins it',
      tail(3, ['a\n', 'x'.repeat(PIECE - 2)]),
      append('b'),
      tail(3, ['a\n', `${'x'.repeat(PIECE - 2)}b`]),
    ],
  ]
  it.each(rows)('%s', (_name, before, event, after) => {
    expect(nextFileTail(before, event)).toStrictEqual(after)
  })

  const ignored: readonly (readonly [name: string, before: FileTail, event: FileTailEvent])[] = [
    ['an empty append', tail(3, 'a\n'), append('')],
    ['a second write while one is in flight (one write at a time)', tail(3, 'b\n', 'a\n'), write],
    ['written with no write in flight', tail(3, 'a\n'), written(2)],
    ['failed with no write in flight', tail(3, 'a\n'), failed],
  ]
  it.each(ignored)('changes nothing and returns the same tail: %s', (_name, before, event) => {
    expect(nextFileTail(before, event)).toBe(before)
  })

  it('R37: a store opens with its valid length as the end and nothing in flight', () => {
    expect(fileTail(12)).toStrictEqual(tail(12, ''))
    expect(fileTail(12, '\n')).toStrictEqual(tail(12, '\n'))
  })
})
