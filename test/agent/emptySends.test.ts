import { describe, expect, it } from 'vitest'
import { type Agent, type AgentMessageId, InvalidInputError, type SendInput } from '../../src/index.js'
import { FOLLOWUP, gate, STEER, setup } from '../support/agents.js'

const user = { kind: 'user' } as const
const textBlock = (text: string) => ({ type: 'text', text }) as const
/** A few bytes of base64: an image block that carries no text. */
const image = { type: 'image', mediaType: 'image/png', data: 'iVBORw0KGgo=' } as const

const EMPTY_TEXT = 'input: empty text: pass the text to send (not empty, not only whitespace)'
const NO_TEXT =
  'input.content: no text: every block is an empty or whitespace-only text block; add text, or an image or file block'

type EmptySend = readonly [name: string, call: (agent: Agent) => unknown, message: string]

const queuedId = (agent: Agent): AgentMessageId => {
  const id = agent.inbox.queue[0]?.message.id
  if (id === undefined) throw new Error('nothing queued')
  return id
}

const emptySends: readonly EmptySend[] = [
  ["followup('')", (a) => a.followup(''), `followup(): ${EMPTY_TEXT}`],
  ["steer('')", (a) => a.steer(''), `steer(): ${EMPTY_TEXT}`],
  ["inject('')", (a) => a.inject(''), `inject(): ${EMPTY_TEXT}`],
  ["send('', followup)", (a) => a.send('', FOLLOWUP), `send(): ${EMPTY_TEXT}`],
  ['followup of whitespace only', (a) => a.followup(' \n\t '), `followup(): ${EMPTY_TEXT}`],
  ['steer of whitespace only', (a) => a.steer('\u00a0 '), `steer(): ${EMPTY_TEXT}`],
  [
    'followup of one empty text block',
    (a) => a.followup({ content: [textBlock('')], source: user }),
    `followup(): ${NO_TEXT}`,
  ],
  [
    'send of text blocks that are all empty or whitespace',
    (a) => a.send({ content: [textBlock(''), textBlock('  ')], source: { kind: 'custom' } }, STEER),
    `send(): ${NO_TEXT}`,
  ],
  ["replace(id, '')", (a) => a.replace(queuedId(a), ''), `replace(): ${EMPTY_TEXT}`],
]

const refusal = (call: () => unknown): InvalidInputError => {
  try {
    call()
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidInputError)
    return error as InvalidInputError
  }
  return expect.unreachable('the call was accepted')
}

describe('R2: a send with nothing in it is refused and changes nothing', () => {
  it.each(emptySends)(
    'R2: %s is an InvalidInputError that says what to send',
    async (_name, call, message) => {
      const g = gate()
      const { agent, model, rec } = setup([g.reply, 'ok'])
      agent.followup('first')
      await rec.when('step/start(1.1)')
      agent.followup('queued')
      const log = rec.log.slice()
      const live = rec.live.length
      const events = agent.session.events
      const inbox = agent.inbox

      expect(refusal(() => call(agent)).message).toBe(message)

      expect(rec.log).toEqual(log)
      expect(rec.live).toHaveLength(live)
      expect(agent.session.events).toEqual(events)
      expect(agent.inbox).toBe(inbox)
      g.release('done')
      await agent.whenIdle()
      // The two turns run as if the refused call had not been made.
      expect(rec.log.filter((entry) => /^(enqueue|user|turn\/end)\(/.test(entry))).toEqual([
        'enqueue(first,queued)',
        'user(first)',
        'enqueue(queued,queued)',
        'turn/end(1,completed)',
        'user(queued)',
        'turn/end(2,completed)',
      ])
      expect(model.requests).toHaveLength(2)
    },
  )

  it('R2: an empty followup while idle mints no id and opens no turn', async () => {
    const { agent, model, rec } = setup(['ok'])
    expect(refusal(() => agent.followup('')).message).toBe(`followup(): ${EMPTY_TEXT}`)
    await agent.whenIdle()
    expect(rec.log).toEqual([])
    expect(agent.session.events).toEqual([])
    expect(agent.inbox).toEqual({ queue: [], outbox: [] })
    expect(model.requests).toHaveLength(0)
  })

  it('R2: one refusal lists an empty input and bad options together', () => {
    const { agent } = setup()
    const loose = agent as unknown as { send(input: unknown, options: unknown): unknown }
    const error = refusal(() => loose.send('', { target: 'soon', wakeup: true }))
    expect(error.issues.map((issue) => issue.path.join('.'))).toEqual(['input', 'options.target'])
  })

  const accepted: readonly [string, SendInput][] = [
    ['an image with no text', { content: [image], source: user }],
    ['an image beside an empty text block', { content: [textBlock(''), image], source: user }],
    ['an empty text block beside some text', { content: [textBlock(' '), textBlock('hi')], source: user }],
    ['text with whitespace around it', '  hi  '],
  ]

  it.each(accepted)('R2: %s is still a valid send', async (_name, input) => {
    const { agent, model } = setup(['ok'])
    agent.followup(input)
    await agent.whenIdle()
    expect(model.requests).toHaveLength(1)
  })
})
