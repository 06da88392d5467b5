/** The terminal app's commands for R68 and R71: `!text` cuts the answer, `/cancel-tool ID` one call. */
import { first, Subject } from 'rxjs'
import { describe, expect, it } from 'vitest'
import { parseCommand, runCommand } from '../../src/cli/commands.js'
import { formatDurable, PLAIN } from '../../src/cli/format.js'
import type { ModelEvent } from '../../src/contracts/model.js'
import { createAgent } from '../../src/index.js'

describe('R68, R71: interrupt and cancel-tool commands', () => {
  it.each([
    ['!shorter please', { kind: 'interrupt', text: 'shorter please' }],
    ['  ! stop ', { kind: 'interrupt', text: 'stop' }],
    ['!', { kind: 'say', text: '!' }],
    ['/cancel-tool call-1', { kind: 'cancel-tool', callId: 'call-1' }],
    ['/cancel-tool', { kind: 'usage', text: expect.stringContaining('usage: /cancel-tool N|ID') }],
  ])('%j parses as %j', (line, command) => {
    expect(parseCommand(line)).toEqual(command)
  })

  it('R71: /cancel-tool of a call that does not run says so and changes nothing', () => {
    const agent = createAgent({ model: () => [] })
    expect(runCommand(agent, { kind: 'cancel-tool', callId: 'c9' }).lines).toEqual([
      'no running tool call c9 (it finished, or the number or id is wrong)',
    ])
    expect(agent.status).toBe('idle')
  })

  it('R68: !text cuts the streamed answer and the steer runs in the next step', async () => {
    const stream = new Subject<ModelEvent>()
    let n = 0
    const agent = createAgent({
      model: () =>
        ++n === 1
          ? stream
          : [
              { type: 'text', text: 'ok' },
              { type: 'finish', reason: 'stop' },
            ],
    })
    agent.followup('hi')
    await new Promise<void>((r) =>
      agent.transcript$.pipe(first((e) => e.type === 'step/start')).subscribe(() => r()),
    )
    stream.next({ type: 'text', text: 'long ' })
    const result = runCommand(agent, parseCommand('!shorter'))
    await agent.whenIdle()
    expect(result.sent?.text).toBe('shorter')
    const ends = agent.session.events.filter((e) => e.type === 'step/end').map((e) => e.data)
    expect(ends).toEqual([
      { turn: 1, step: 1, interrupted: true },
      { turn: 1, step: 2 },
    ])
    // The cut answer is shown as cut, not as if it were all the model had to say.
    const answers = agent.session.events.filter((e) => e.type === 'assistant/message')
    expect(answers.map((e) => formatDurable(e, PLAIN))).toEqual(['assistant › long… [cut]', 'assistant › ok'])
  })
})
