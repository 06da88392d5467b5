/**
 * What `steerable attach` prints in a terminal (`liveView`), fed the owner's live events and the
 * committed transcript in the orders they can arrive in from PostgreSQL: a notification and a
 * read of the log race, so the answer's last deltas can come after its `assistant/message`, and
 * its first ones before the prompt it answers.
 */
import { describe, expect, it } from 'vitest'
import { PLAIN } from '../../src/cli/format.js'
import { liveView } from '../../src/cli/liveView.js'
import type { SessionEvent } from '../../src/index.js'
import type { RemoteAgentEvent } from '../../src/postgres.js'

/**
 * The screen a terminal would show for what was written: text, newlines, and the region's
 * redraw (`ESC[nA` up n rows, `\r ESC[J` clear to the end of the screen). Lines are short: no wrap.
 */
const screen = (written: string): string[] => {
  const rows: string[] = ['']
  let row = 0
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the escapes are what is parsed
  for (const part of written.split(/(\x1b\[\d*A|\r\x1b\[J|\n)/)) {
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the escape is what is parsed
    const up = /^\x1b\[(\d*)A$/.exec(part)
    if (up) row -= Number(up[1] || 1)
    else if (part === '\r\x1b[J') rows.splice(row, rows.length - row, '')
    else if (part === '\n') {
      row++
      if (rows.length <= row) rows.push('')
    } else rows[row] += part
  }
  return rows
}

const view = () => {
  let out = ''
  const write = (s: string) => {
    out += s
    return true
  }
  const sink = { write } as unknown as NodeJS.WritableStream
  const v = liveView(sink, PLAIN, { stream: true, events: false })
  // What the terminal itself writes: the echo of a line typed outside raw mode.
  const echo = (line: string) => {
    out += `${line}\n`
    v.typed(line)
  }
  return { v, echo, lines: () => screen(out) }
}
let seq = 0
const durable = (type: string, data: object) => ({ seq: ++seq, type, data }) as unknown as SessionEvent
const delta = (text: string, step = 1) =>
  ({ type: 'agent/stream/delta', agentId: 'a', turn: 1, step, kind: 'text', text }) as RemoteAgentEvent
const prompt = durable('user/message', {
  content: [{ type: 'text', text: 'hello' }],
  source: { kind: 'user' },
  id: 'm1',
})
const start = durable('turn/start', { turn: 1, trigger: { kind: 'message', id: 'm1' } })
const step = (n: number) => durable('step/start', { turn: 1, step: n })
const answer = (text: string, more: object = {}) =>
  durable('assistant/message', { turn: 1, step: 1, content: [{ type: 'text', text }], ...more })

describe('attach in a terminal shows what the owner shows, in order, to the last word', () => {
  it('R56: deltas that arrive after the answer committed: the line still ends with its last word', () => {
    const { v, lines } = view()
    for (const e of [prompt, start, step(1)]) v.durable(e)
    v.live(delta('Hello. '))
    v.live(delta('Anything'))
    v.durable(answer('Hello. Anything else?'))
    v.live(delta(' else?'))
    v.durable(durable('step/end', { turn: 1, step: 1 }))
    expect(lines()).toEqual(['you › hello', 'assistant › Hello. Anything else?', ''])
  })

  it('R56: text that streams before the prompt is read from the log stays below it, as in the owner terminal', () => {
    const { v, lines } = view()
    v.live(delta('Hi '))
    v.live(delta('there'))
    expect(lines()).toEqual(['assistant › Hi there'])
    for (const e of [prompt, start, step(1)]) v.durable(e)
    expect(lines()).toEqual(['you › hello', 'assistant › Hi there'])
    v.live(delta('.'))
    v.durable(answer('Hi there.'))
    expect(lines()).toEqual(['you › hello', 'assistant › Hi there.', ''])
  })

  it('R56: a line printed while the text streams goes above it; the answer is printed once, whole', () => {
    const { v, lines } = view()
    for (const e of [prompt, start, step(1)]) v.durable(e)
    v.live(delta('Half'))
    v.print('✓ steered into 1.2 · be brief')
    v.live(delta(' and half'))
    expect(lines()).toEqual(['you › hello', '✓ steered into 1.2 · be brief', 'assistant › Half and half'])
    v.durable(answer('Half and half'))
    expect(lines()).toEqual(['you › hello', '✓ steered into 1.2 · be brief', 'assistant › Half and half', ''])
  })

  it('R56: a line typed while the text streams (the terminal echoes it) leaves no stale copy of the text', () => {
    const { v, echo, lines } = view()
    for (const e of [prompt, start, step(1)]) v.durable(e)
    v.live(delta('Let me'))
    echo('be brief')
    v.live(delta(' check'))
    v.durable(answer('Let me check'))
    expect(lines()).toEqual(['you › hello', 'assistant › Let me check', ''])
  })

  it('R68: an answer a steer cut is marked cut; one a cancel cut keeps its streamed text, marked', () => {
    const { v, lines } = view()
    for (const e of [prompt, start, step(1)]) v.durable(e)
    v.live(delta('Once upon'))
    v.durable(answer('Once upon', { interrupted: true }))
    expect(lines().at(-2)).toBe('assistant › Once upon… [cut]')
    v.durable(step(2))
    v.live(delta('A time', 2))
    v.durable(durable('turn/end', { turn: 1, reason: { kind: 'aborted' } }))
    expect(lines().slice(-3)).toEqual(['assistant › A time… [cut]', '(turn 1 aborted)', ''])
  })
})
