import { describe, it } from 'vitest'
import type { SendOptions } from '../src/contracts/messages.js'
import type { InjectSend, QueueSend } from '../src/machine/inputs.js'
import type { AcceptedSend } from '../src/messages/acceptSend.js'
import { splitSends } from '../src/runtime/splitSends.js'
import { marbles, message } from './operators/fixtures.js'

const send = (id: string, target: SendOptions['target'], wakeup: boolean, text?: string): AcceptedSend => ({
  message: message(id),
  options: { target, wakeup },
  text,
})
/** f = followup, s = steer, i = inject, p = parked send (R4's routing inputs). */
const sends = {
  f: send('f', 'next-turn', true),
  s: send('s', 'next-step', true),
  i: send('i', 'next-step', false),
  p: send('p', 'next-turn', false),
  t: send('t', 'next-turn', true, 'x'),
}
const tagged: Record<string, QueueSend | InjectSend> = {
  F: {
    type: 'queue',
    message: message('f'),
    target: 'next-turn',
    wakeup: true,
    text: undefined,
    interrupt: undefined,
    deny: undefined,
    maxSteps: undefined,
    cut: undefined,
    turn: undefined,
  },
  S: {
    type: 'queue',
    message: message('s'),
    target: 'next-step',
    wakeup: true,
    text: undefined,
    interrupt: undefined,
    deny: undefined,
    maxSteps: undefined,
    cut: undefined,
    turn: undefined,
  },
  I: { type: 'inject', message: message('i') },
  P: {
    type: 'queue',
    message: message('p'),
    target: 'next-turn',
    wakeup: false,
    text: undefined,
    interrupt: undefined,
    deny: undefined,
    maxSteps: undefined,
    cut: undefined,
    turn: undefined,
  },
  T: {
    type: 'queue',
    message: message('t'),
    target: 'next-turn',
    wakeup: true,
    text: 'x',
    interrupt: undefined,
    deny: undefined,
    maxSteps: undefined,
    cut: undefined,
    turn: undefined,
  },
}

describe('splitSends (sends split into the queue and inject streams, R4)', () => {
  // biome-ignore format: marble alignment
  it('R4: tags next-turn and waking next-step as queue, the rest as inject, in arrival order', marbles((m) => {
    const source = m.hot('--f--s--i--p--|', sends)
    const expected =     '--F--S--I--P--|'
    m.expect(source.pipe(splitSends())).toBeObservable(expected, tagged)
    m.expect(source).toHaveSubscriptions('^-------------!')
  }))

  // biome-ignore format: marble alignment
  it('sends of one frame keep their order across the two branches; a string send keeps its text', marbles((m) => {
    const source = m.hot('-(istfi)-|', sends)
    const expected =     '-(ISTFI)-|'
    m.expect(source.pipe(splitSends())).toBeObservable(expected, tagged)
  }))

  // biome-ignore format: marble alignment
  it('an error of the source passes through once, and the source is subscribed once', marbles((m) => {
    const source = m.hot('--f--i--#', sends, new Error('boom'))
    const expected =     '--F--I--#'
    m.expect(source.pipe(splitSends())).toBeObservable(expected, tagged, new Error('boom'))
    m.expect(source).toHaveSubscriptions('^-------!')
  }))
})
