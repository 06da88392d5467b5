import { TestScheduler } from 'rxjs/testing'
import { marbles } from 'rxjs-marbles'
import { describe, expect, it } from 'vitest'
import { createAgent } from '../../src/agent/createAgent.js'
import type { Agent } from '../../src/contracts/agent.js'
import { InvalidInputError } from '../../src/contracts/errors.js'
import { parseDiagram } from '../../src/marbleKit/parseDiagram.js'
import {
  agentMarbles,
  createTestAgent,
  type ExpectedAgentMarbles,
  expectAgentMarbles,
  scriptedModel,
} from '../../src/testing.js'

// `go` at frame 1; the model answers 10 frames after each request; `be brief` is steered at
// frame 9, while the first request waits: it is drained at that step's end and runs step 2.
const SCRIPT = ['On it.', 'Done.']
const VALUES = {
  e: 'enqueue(go,queued)',
  r: 'running',
  d: 'dequeue(go)',
  E: 'enqueue(be brief,steering)',
  D: 'dequeue(be brief)',
  x: 'settled(1,completed)',
  i: 'idle',
  t: 'turn/start(1)',
  u: 'user(go)',
  p: 'step/start(1.1)',
  a: 'assistant(On it.)',
  S: 'steering(be brief)',
  b: 'step/end(1.1)',
  P: 'step/start(1.2)',
  A: 'assistant(Done.)',
  B: 'step/end(1.2)',
  n: 'turn/end(1,completed)',
}
// biome-ignore format: marble alignment
const EXPECTED = {
  events:     '-(erd)---E-D---------(xi)',
  transcript: '-(tup)-----(aSbP)----(ABn)',
  timeline:   '-(erdtup)E-(aDSbP)---(ABnxi)',
  values: VALUES,
}

/** Runs the steer scenario on `scheduler`, expecting `expected`; gives the agent back. */
const steerScenario = (scheduler: TestScheduler, expected: ExpectedAgentMarbles): Agent => {
  let agent: Agent | undefined
  scheduler.run(({ hot }) => {
    const made = createTestAgent({ script: SCRIPT, scheduler })
    agent = made
    hot('-f 7ms s', { f: () => made.followup('go'), s: () => made.steer('be brief') }).subscribe((send) =>
      send(),
    )
    expectAgentMarbles(made, expected)
  })
  return agent as Agent
}

const failureOf = (run: () => unknown): Error => {
  try {
    run()
  } catch (error) {
    return error as Error
  }
  throw new Error('the run passed')
}

describe('steerable/testing: marble specs of a whole agent', () => {
  it('R83: a steer in the acceptance window, pinned on all three lanes with a plain TestScheduler; what agentMarbles draws passes as the expected diagrams', () => {
    const agent = steerScenario(new TestScheduler(() => {}), EXPECTED)
    const drawn = agentMarbles(agent)
    expect(drawn.timeline).toBe('-(erdtus)E-(aDSbc)---(AfTgi)')
    expect(drawn.values.E).toBe('enqueue(be brief,steering)')
    // What it draws, pasted in as the expected diagrams of the same run, passes.
    const { events, transcript, timeline, values } = drawn
    steerScenario(new TestScheduler(() => {}), { events, transcript, timeline, values })
  })

  it('R83: the same spec inside rxjs-marbles, on m.scheduler', () => {
    const spec = marbles((m) => {
      const agent = createTestAgent({ script: SCRIPT, scheduler: m.scheduler })
      m.hot('-f 7ms s', { f: () => agent.followup('go'), s: () => agent.steer('be brief') }).subscribe(
        (send) => send(),
      )
      expectAgentMarbles(agent, EXPECTED)
    })
    expect(() => spec()).not.toThrow()
    const wrong = marbles((m) => {
      const agent = createTestAgent({ script: SCRIPT, scheduler: m.scheduler })
      m.hot('-f', { f: () => agent.followup('go') }).subscribe((send) => send())
      expectAgentMarbles(agent, { events: EXPECTED.events, values: VALUES })
    })
    expect(() => wrong()).toThrow(/the agent's events lane is not the expected one/)
  })

  it('R83: a wrong diagram fails with both diagrams side by side and their legends, not a JSON diff', () => {
    // The steer expected one frame late: the one difference of eighteen values.
    const late = { ...EXPECTED, timeline: '-(erdtup)-E(aDSbP)---(ABnxi)' }
    const { message } = failureOf(() => steerScenario(new TestScheduler(() => {}), late))
    const lines = message.split('\n')
    expect(lines[0]).toBe(
      "expectAgentMarbles(): the agent's timeline lane is not the expected one " +
        '(first difference: value 7: expected enqueue(be brief,steering) at frame 10, got enqueue(be brief,steering) at frame 9)',
    )
    expect(lines[1]).toMatch(/^ {2}expected +│ actual$/)
    expect(lines[2]).toMatch(
      /^ {2}'-\(erdtup\)-E\(aDSbP\)---\(ABnxi\)' +│ '-\(erdtup\)E-\(aDSbP\)---\(ABnxi\)'$/,
    )
    expect(lines[3]).toMatch(/^ {2}e: enqueue\(go,queued\) +│ e: enqueue\(go,queued\)$/)
    expect(lines).toHaveLength(3 + 17)
    // The columns line up: the bar is at one place on every line.
    expect(new Set(lines.slice(1).map((line) => line.indexOf('│'))).size).toBe(1)
    expect(message).not.toMatch(/"frame"|notification|kind|\{/)
  })

  it('R83: a value the actual run lacks, or has more of, is shown on its side only, with letters that mean one thing', () => {
    const short = {
      transcript: '-(tup)-----(aSbP)----(AB)',
      values: { ...VALUES, n: 'turn/end(9,completed)' },
    }
    const { message } = failureOf(() => steerScenario(new TestScheduler(() => {}), short))
    expect(message).toContain(
      'first difference: value 10: expected nothing more, got turn/end(1,completed) at frame 21',
    )
    // The actual turn/end is not the expected `n`, so it gets a letter the expected legend lacks.
    expect(message).toMatch(/│ '-\(tup\)-----\(aSbP\)----\(ABc\)'/)
    expect(message).toMatch(/│ c: turn\/end\(1,completed\)$/m)
  })

  it('R83: an actual value marble syntax cannot place is explained, with its exact frame', () => {
    const scheduler = new TestScheduler(() => {})
    const { message } = failureOf(() =>
      scheduler.run(({ hot }) => {
        const agent = createTestAgent({ script: SCRIPT, scheduler })
        // The steer at frame 3, inside the frames the group (erd) at frame 1 takes: drawn at 6.
        hot('-f-s', { f: () => agent.followup('go'), s: () => agent.steer('be brief') }).subscribe((send) =>
          send(),
        )
        expectAgentMarbles(agent, { events: '-(erd)-E', values: VALUES })
      }),
    )
    expect(message).toContain(
      'first difference: value 4: expected enqueue(be brief,steering) at frame 7, got enqueue(be brief,steering) at frame 6',
    )
    expect(message).toContain(
      'note: enqueue(be brief,steering) came at frame 3, which marble syntax cannot draw after the group before it',
    )
  })

  it('R83: what agentMarbles drew for a run passes for the same run, where a value came inside the frames of the group before it', () => {
    // A consumer's spec: the followup at frame 1, the steer at frame 7, inside the eight frames
    // the timeline's group (erdtup) takes from frame 1: the diagram draws the steer at frame 9.
    const run = (expected?: ExpectedAgentMarbles): Agent => {
      const scheduler = new TestScheduler(() => {})
      let agent: Agent | undefined
      scheduler.run(({ hot }) => {
        const made = createTestAgent({ script: SCRIPT, scheduler })
        agent = made
        hot('-f-----s', { f: () => made.followup('go'), s: () => made.steer('be brief') }).subscribe((send) =>
          send(),
        )
        if (expected) expectAgentMarbles(made, expected)
      })
      return agent as Agent
    }
    const drawn = agentMarbles(run())
    expect(drawn.timeline).toBe('-(erdtus)E-(aDSbc)---(AfTgi)')
    const { events, transcript, timeline, values } = drawn
    expect(() => run({ events, transcript, timeline, values })).not.toThrow()
    // The same diagram with the steer one frame later is still wrong.
    const late = timeline.replace(')E-(', ')-E(')
    expect(late).not.toBe(timeline)
    expect(() => run({ timeline: late, values })).toThrow(
      /timeline lane is not the expected one \(first difference: value 7: expected enqueue\(be brief,steering\) at frame 10, got enqueue\(be brief,steering\) at frame 9\)/,
    )
  })

  it('R83: the lanes leave deltas and the tool lifecycle out unless asked for', () => {
    const scheduler = new TestScheduler(() => {})
    scheduler.run(({ hot }) => {
      const agent = createTestAgent({ script: ['Two words.'], scheduler, delay: 20 })
      hot('-f', { f: () => agent.followup('go') }).subscribe((send) => send())
      expectAgentMarbles(agent, { events: '-(erd) 15ms (xi)', values: VALUES })
      // biome-ignore format: marble alignment
      expectAgentMarbles(agent, {
        events: '-(erd) 15ms (12xi)', deltas: true, values: { ...VALUES, 1: 'delta(Two )', 2: 'delta(words.)' },
      })
    })
  })

  it('R83: a failed run leaves no check behind: the next run on the same scheduler is checked', () => {
    const scheduler = new TestScheduler(() => {})
    expect(() =>
      scheduler.run(() => {
        const agent = createTestAgent({ script: SCRIPT, scheduler })
        expectAgentMarbles(agent, { events: '' })
        scheduler.schedule(() => {
          throw new Error('an earlier failure')
        }, 1)
      }),
    ).toThrow('an earlier failure')
    expect(() => steerScenario(scheduler, { ...EXPECTED, events: '-(erd)' })).toThrow(/events lane/)
  })

  it('R83: bad input to createTestAgent is an InvalidInputError that names each problem', () => {
    const scheduler = new TestScheduler(() => {})
    const attempts: [unknown, RegExp][] = [
      [undefined, /options: expected an object/],
      [{ scheduler }, /options\.script: expected an array of replies/],
      [{ script: ['hi', 42], scheduler }, /options\.script\[1\]: expected a string, an object/],
      [
        { script: [{ text: 'hi', delay: -1 }], scheduler },
        /options\.script\[0\]\.delay: expected a number of frames/,
      ],
      [{ script: [], scheduler, delay: Number.NaN }, /options\.delay: expected a number of frames/],
      [{ script: [] }, /options\.scheduler: expected the spec's TestScheduler/],
      [{ script: [], scheduler: {} }, /options\.scheduler/],
      [
        { script: [], scheduler, model: scriptedModel([]) },
        /options\.model: createTestAgent makes the model/,
      ],
    ]
    for (const [options, message] of attempts) {
      const error = failureOf(() => createTestAgent(options as never))
      expect(error).toBeInstanceOf(InvalidInputError)
      expect(error.message).toMatch(/^createTestAgent\(\): /)
      expect(error.message).toMatch(message)
    }
  })

  it('R83: bad input to expectAgentMarbles and agentMarbles is an InvalidInputError', () => {
    const scheduler = new TestScheduler(() => {})
    const plain = createAgent({ model: scriptedModel([]) })
    expect(() => agentMarbles(plain)).toThrow(InvalidInputError)
    expect(() => agentMarbles(plain)).toThrow(
      /agentMarbles\(\): agent: expected an agent made by createTestAgent/,
    )
    // Outside scheduler.run: frames would be counted in the wrong unit.
    const idle = createTestAgent({ script: [], scheduler })
    expect(() => expectAgentMarbles(idle, { events: '' })).toThrow(/call inside scheduler\.run/)
    scheduler.run(() => {
      const agent = createTestAgent({ script: [], scheduler })
      expect(() => expectAgentMarbles(plain, { events: '' })).toThrow(InvalidInputError)
      expect(() => expectAgentMarbles(agent, {})).toThrow(
        /expected at least one of events, transcript or timeline/,
      )
      expect(() => expectAgentMarbles(agent, { timeline: '^-a' })).toThrow(
        /expected\.timeline: '\^' marks a subscription/,
      )
      expect(() => expectAgentMarbles(agent, { events: 7 as never })).toThrow(
        /expected\.events: expected a marble diagram/,
      )
    })
  })

  it('R83: the diagrams are read as TestScheduler.run reads them', () => {
    const diagrams = ['', '-a', '--(abc)-d', ' -(ab) 5ms c', '10ms (a|)', '1s a 2m b', '-a-#', 'ab 3ms (cd)e']
    new TestScheduler(() => {}).run(() => {
      for (const diagram of diagrams) {
        const rxjs = TestScheduler.parseMarbles(diagram, undefined, undefined, false, true).map((m) => ({
          frame: m.frame,
          letter:
            m.notification.kind === 'N' ? m.notification.value : m.notification.kind === 'C' ? '|' : '#',
        }))
        expect(parseDiagram(diagram), diagram).toEqual(rxjs)
      }
    })
  })
})
