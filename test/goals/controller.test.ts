/**
 * `createGoalController` through the public API (R32): mutations as round-0 injects, continuation
 * rounds up to the cap, human prompts before continuations, cancel/pause while a continuation
 * waits, compare-and-set edits, refused calls, staged changes (V1), and resume from a file store
 * (R37). At rest the controller's view always equals the fold of the transcript (R34).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { NEVER } from 'rxjs'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  type Agent,
  type AgentOptions,
  createAgent,
  createGoalController,
  decodeGoalEvent,
  fileStore,
  foldGoal,
  type GoalChange,
  type GoalController,
  type GoalControllerOptions,
  GoalRevisionConflict,
  type GoalState,
  GoalStateError,
  type GoalView,
  InvalidInputError,
  renderGoalChange,
  type SessionEvent,
  type SessionEventOf,
} from '../../src/index.js'
import { type ScriptedReply, scriptedModel } from '../../src/testing.js'
import { gate, setup as setupAgent } from '../support/agents.js'
import { aborted, answered, oneTurn, opening } from '../support/labels.js'

/** Short continuation prompts, so labels stay readable: `go 1`, `go 2`, … */
const GO: GoalControllerOptions = { continuation: (_goal, round) => `go ${round}` }

/** An agent on a scripted model, recorded from its creation, with a goal controller. */
const setup = (
  script: readonly ScriptedReply[] = [],
  goalOptions: GoalControllerOptions = GO,
  options: Omit<AgentOptions, 'model'> = {},
) => {
  const ctx = setupAgent(script, options)
  return { ...ctx, goals: createGoalController(ctx.agent, goalOptions) }
}

/** `setup` with a goal `o` of `maxRounds` rounds created; resolves once the step of round 1 is open. */
const inRound1 = async (
  script: readonly ScriptedReply[],
  maxRounds: number,
  options: Omit<AgentOptions, 'model'> = {},
) => {
  const ctx = setup(script, GO, options)
  const goal = ctx.goals.create({ objective: 'o', maxRounds })
  await ctx.rec.when('step/start(1.1)')
  return { ...ctx, goal }
}

/** A waking prompt from a plugin: not a human prompt, so continuations need not wait for it. */
const PLUGIN_PROMPT = {
  content: [{ type: 'text', text: 'plugin' }],
  source: { kind: 'plugin', plugin: 'p' },
} as const

/** The label of the round-0 message that carries `change`. */
const changed = (change: GoalChange) => `user(${renderGoalChange(change)})`

const userMessages = (events: readonly SessionEvent[]) =>
  events.filter((e): e is SessionEventOf<'user/message'> => e.type === 'user/message')
type GoalSource = { kind: 'goal'; goalId: string; revision: number; round: number; change?: unknown }
const goalSources = (events: readonly SessionEvent[]): GoalSource[] =>
  userMessages(events)
    .map((e) => e.data.source)
    .filter((s) => s.kind === 'goal') as GoalSource[]
/** `[revision, round]` of every goal message in the transcript, in order. */
const goalTrail = (events: readonly SessionEvent[]) =>
  goalSources(events).map((s) => [s.revision, s.round] as [unknown, unknown])

/** The view equals the fold of the transcript (R34). */
const expectViewIsFold = (goals: GoalController, agent: Agent) => {
  expect(goals.view()).toEqual(foldGoal(agent.session.events))
}

/** `call` must throw `type` and change nothing: no event of either stream, the same view. */
const expectRefused = (
  { agent, goals, rec }: { agent: Agent; goals: GoalController; rec: { log: string[] } },
  call: () => unknown,
  type: new (...args: never[]) => Error,
  message?: RegExp,
) => {
  const events = agent.session.events.length
  const log = rec.log.length
  const view = goals.view()
  const emitted: GoalView[] = []
  const sub = goals.view$.subscribe((v) => emitted.push(v))
  let error: unknown
  try {
    call()
  } catch (e) {
    error = e
  }
  sub.unsubscribe()
  expect(error).toBeInstanceOf(type)
  if (message) expect((error as Error).message).toMatch(message)
  expect(agent.session.events.length).toBe(events)
  expect(rec.log.length).toBe(log)
  expect(goals.view()).toEqual(view)
  expect(emitted).toEqual([view])
  return error as Error
}

/** The labels of one completed turn `turn` for prompt `prompt` answered `answer` (no status). */
const turn = (n: number, prompt: string, answer: string) => oneTurn(prompt, answer, n).slice(1, -1)

/** The labels of `log` from `entry` on. */
const fromLabel = (log: readonly string[], entry: string) => log.slice(log.indexOf(entry))

/** The texts of the prompts in `events`: user messages other than round-0 goal changes. */
const prompts = (events: readonly SessionEvent[]) =>
  userMessages(events)
    .filter((e) => !(e.data.source.kind === 'goal' && e.data.source.round === 0))
    .map((e) => (e.data.content[0] as { text: string }).text)

describe('goal mutations (R32)', () => {
  it('R32: each mutation is one round-0 inject with canonical content; revisions go +1', async () => {
    const { agent, goals, rec, model } = setup()
    const created = goals.create({ objective: 'ship it', maxRounds: 4 })
    const paused = goals.pause()
    const edited = goals.edit({ objective: 'ship it well' })
    const blocked = goals.block({ code: 'needs-input', message: 'which branch?' })
    const reEdited = goals.edit({ maxRounds: 6 })
    const completed = goals.complete()
    goals.clear()
    await agent.whenIdle()
    expect(model.requests).toHaveLength(0)

    expect(created).toMatchObject({ revision: 1, objective: 'ship it', phase: 'active', maxRounds: 4 })
    expect(created.goalId).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/)
    expect(paused).toEqual({ ...created, revision: 2, phase: 'paused' })
    expect(edited).toEqual({ ...created, revision: 3, phase: 'paused', objective: 'ship it well' })
    expect(blocked).toEqual({
      ...edited,
      revision: 4,
      phase: 'blocked',
      blocked: { code: 'needs-input', message: 'which branch?' },
    })
    // An edit keeps the phase and the blocked reason.
    expect(reEdited).toEqual({ ...blocked, revision: 5, maxRounds: 6 })
    expect(completed).toEqual({ ...edited, revision: 6, maxRounds: 6, phase: 'complete' })
    const tombstone = { goalId: created.goalId, revision: 7, cleared: true }

    const changes = [created, paused, edited, blocked, reEdited, completed, tombstone] as GoalChange[]
    const messages = userMessages(rec.durable).filter((e) => e.data.source.kind === 'goal')
    expect(messages).toHaveLength(7)
    messages.forEach((event, i) => {
      const change = changes[i] as GoalChange
      expect(event.data.content).toEqual([{ type: 'text', text: renderGoalChange(change) }])
      expect(event.data.source).toEqual({
        kind: 'goal',
        goalId: created.goalId,
        revision: i + 1,
        round: 0,
        change,
      })
      expect(decodeGoalEvent(event)).toEqual(change)
    })
    // Injected: no inbox events for the changes; the only queued item is the round-1 continuation
    // that `create` started, blocked at admission by the `pause` (no turn).
    expect(rec.log).toEqual([
      changed(created),
      'enqueue(go 1,queued)',
      changed(paused),
      changed(edited),
      changed(blocked),
      changed(reEdited),
      changed(completed),
      changed(tombstone as GoalChange),
      'running',
      'dequeue(go 1)',
      'idle',
    ])
    expect(goals.view()).toEqual({ goal: undefined, rounds: 0 })
    expectViewIsFold(goals, agent)
  })

  it('R32: view$ emits the current view on subscribe and each change', async () => {
    const { agent, goals } = setup()
    const seen: GoalView[] = []
    goals.view$.subscribe((v) => seen.push(v))
    const created = goals.create({ objective: 'o' })
    const paused = goals.pause()
    await agent.whenIdle()
    expect(seen).toEqual([
      { goal: undefined, rounds: 0 },
      { goal: created, rounds: 0 },
      { goal: paused, rounds: 0 },
    ])
  })

  it('R32: maxRounds defaults to 10, or to the defaultMaxRounds option; null means no cap', async () => {
    const a = setup()
    expect(a.goals.create({ objective: 'o' }).maxRounds).toBe(10)
    a.goals.pause()
    const b = setup([], { ...GO, defaultMaxRounds: 2 })
    expect(b.goals.create({ objective: 'o' }).maxRounds).toBe(2)
    b.goals.pause()
    const c = setup([], { ...GO, defaultMaxRounds: null })
    expect(c.goals.create({ objective: 'o' }).maxRounds).toBeNull()
    c.goals.pause()
    expect(c.goals.edit({ maxRounds: 3 }).maxRounds).toBe(3)
    expect(c.goals.edit({ maxRounds: null }).maxRounds).toBeNull()
    await Promise.all([a.agent.whenIdle(), b.agent.whenIdle(), c.agent.whenIdle()])
  })

  it('R32: create after complete or clear starts a new goal id at revision 1 with rounds from 0', async () => {
    const { agent, goals } = setup(['a1'])
    const first = goals.create({ objective: 'one', maxRounds: 1 })
    await agent.whenIdle()
    expect(goals.view()).toMatchObject({ goal: { phase: 'blocked' }, rounds: 1 })
    goals.complete()
    const second = goals.create({ objective: 'two', maxRounds: 1 })
    expect(second.goalId).not.toBe(first.goalId)
    expect(second.revision).toBe(1)
    expect(goals.view()).toEqual({ goal: second, rounds: 0 })
    goals.pause()
    goals.clear()
    const third = goals.create({ objective: 'three' })
    expect(third.goalId).not.toBe(second.goalId)
    expect(goals.view()).toEqual({ goal: third, rounds: 0 })
    goals.pause()
    await agent.whenIdle()
    expectViewIsFold(goals, agent)
  })
})

describe('continuation rounds (R32)', () => {
  it('R32: create on an idle agent runs rounds up to the cap, then blocks with round-cap-reached', async () => {
    const { agent, goals, rec, model } = setup(['a1', 'a2'])
    const g = goals.create({ objective: 'ship it', maxRounds: 2 })
    await agent.whenIdle()
    const capped: GoalState = {
      ...g,
      revision: 2,
      phase: 'blocked',
      blocked: { code: 'round-cap-reached', message: expect.any(String) as unknown as string },
    }
    const blockedChange = goalSources(rec.durable).at(-1)?.change as GoalState
    expect(blockedChange).toEqual(capped)
    expect(rec.log).toEqual([
      changed(g),
      'enqueue(go 1,queued)',
      'running',
      ...turn(1, 'go 1', 'a1'),
      'enqueue(go 2,queued)',
      ...turn(2, 'go 2', 'a2'),
      changed(blockedChange),
      'idle',
    ])
    expect(goalSources(rec.durable)).toEqual([
      { kind: 'goal', goalId: g.goalId, revision: 1, round: 0, change: g },
      { kind: 'goal', goalId: g.goalId, revision: 1, round: 1 },
      { kind: 'goal', goalId: g.goalId, revision: 1, round: 2 },
      { kind: 'goal', goalId: g.goalId, revision: 2, round: 0, change: blockedChange },
    ])
    // The continuation prompts are the turns' triggers.
    const starts = rec.durable.filter((e): e is SessionEventOf<'turn/start'> => e.type === 'turn/start')
    expect(starts.map((e) => e.data.trigger)).toEqual([
      {
        kind: 'message',
        source: { kind: 'goal', goalId: g.goalId, revision: 1, round: 1 },
        id: expect.any(String),
      },
      {
        kind: 'message',
        source: { kind: 'goal', goalId: g.goalId, revision: 1, round: 2 },
        id: expect.any(String),
      },
    ])
    expect(model.requests).toHaveLength(2)
    expect(goals.view()).toEqual({ goal: capped, rounds: 2 })
    expectViewIsFold(goals, agent)
  })

  it('R32: the default continuation prompt names the round, the cap and the objective', async () => {
    const model = scriptedModel(['a1'])
    const agent = createAgent({ model })
    const goals = createGoalController(agent)
    goals.create({ objective: 'write the docs', maxRounds: 1 })
    await agent.whenIdle()
    const prompt = userMessages(agent.session.events).find(
      (e) => e.data.source.kind === 'goal' && e.data.source.round === 1,
    )
    const block = prompt?.data.content[0]
    expect(block?.type === 'text' && block.text).toMatch(/round 1/)
    expect(block?.type === 'text' && block.text).toContain('write the docs')
  })

  it('R32: a model that fails a round ends the chain (no further rounds); view equals fold', async () => {
    const { agent, goals, model } = setup([{ error: new Error('boom') }])
    goals.create({ objective: 'o', maxRounds: 3 })
    await agent.whenIdle()
    expect(model.requests).toHaveLength(1)
    expect(goals.view()).toMatchObject({ goal: { phase: 'active', revision: 1 }, rounds: 1 })
    expectViewIsFold(goals, agent)
  })

  it('R32: rounds are counted per goal id across revisions; raising the cap and resuming continues them', async () => {
    const { agent, goals, rec } = setup(['a1', 'a2'])
    const g = goals.create({ objective: 'o', maxRounds: 1 })
    await agent.whenIdle()
    expect(goals.view()).toMatchObject({ goal: { revision: 2, phase: 'blocked' }, rounds: 1 })
    const edited = goals.edit({ maxRounds: 2 }, 2)
    expect(edited).toMatchObject({ revision: 3, phase: 'blocked', maxRounds: 2 })
    const resumed = goals.resume()
    expect(resumed).toEqual({ ...g, revision: 4, maxRounds: 2 })
    await agent.whenIdle()
    expect(goalTrail(rec.durable)).toEqual([
      [1, 0],
      [1, 1],
      [2, 0],
      [3, 0],
      [4, 0],
      [4, 2],
      [5, 0],
    ])
    expect(goals.view()).toMatchObject({
      goal: { revision: 5, phase: 'blocked', blocked: { code: 'round-cap-reached' } },
      rounds: 2,
    })
    expectViewIsFold(goals, agent)
  })

  it('R32: resume() of a paused goal re-arms it and starts the next round when idle', async () => {
    const { agent, goals, rec, model } = setup(['a1'])
    const g = goals.create({ objective: 'o', maxRounds: 1 })
    goals.pause()
    await agent.whenIdle()
    expect(model.requests).toHaveLength(0)
    goals.resume()
    await agent.whenIdle()
    expect(model.requests).toHaveLength(1)
    expect(goalSources(rec.durable)[3]).toEqual({ kind: 'goal', goalId: g.goalId, revision: 3, round: 1 })
    expect(goals.view()).toMatchObject({ goal: { revision: 4, phase: 'blocked' }, rounds: 1 })
    expectViewIsFold(goals, agent)
  })
})

describe('human prompts go before continuations (R32)', () => {
  it('R32: a human followup sent while a round runs goes before the next continuation', async () => {
    const g1 = gate()
    const { agent, goals, rec, goal: g } = await inRound1([g1.reply, 'h', 'a2'], 2)
    agent.followup('human')
    g1.release('a1')
    await agent.whenIdle()
    const capped = goalSources(rec.durable).at(-1)?.change as GoalState
    expect(rec.log).toEqual([
      changed(g),
      ...opening('go 1'),
      'enqueue(human,queued)',
      ...answered('a1'),
      ...turn(2, 'human', 'h'),
      'enqueue(go 2,queued)',
      ...turn(3, 'go 2', 'a2'),
      changed(capped),
      'idle',
    ])
    expect(goalTrail(rec.durable)).toEqual([
      [1, 0],
      [1, 1],
      [1, 2],
      [2, 0],
    ])
    expectViewIsFold(goals, agent)
  })

  it('R32: a continuation queued before a human prompt arrived is blocked at admission and re-queued after the human turn', async () => {
    const { agent, goals, rec, model } = setup(['a1', 'h', 'a2'])
    // Sent right after the continuation for round 2 was queued (from its enqueue subscriber).
    agent.events$.subscribe((e) => {
      if (e.type === 'agent/inbox/enqueue' && e.message.content[0]?.type === 'text') {
        if (e.message.content[0].text === 'go 2' && !rec.log.includes('enqueue(human,queued)'))
          agent.followup('human')
      }
    })
    const g = goals.create({ objective: 'o', maxRounds: 2 })
    await agent.whenIdle()
    const capped = goalSources(rec.durable).at(-1)?.change as GoalState
    expect(rec.log).toEqual([
      changed(g),
      'enqueue(go 1,queued)',
      'running',
      ...turn(1, 'go 1', 'a1'),
      'enqueue(go 2,queued)',
      'enqueue(human,queued)',
      // The continuation is claimed first (FIFO), and blocked: a human prompt waits. No turn.
      'dequeue(go 2)',
      ...turn(2, 'human', 'h'),
      'enqueue(go 2,queued)',
      ...turn(3, 'go 2', 'a2'),
      changed(capped),
      'idle',
    ])
    expect(model.requests.map((r) => r.turn)).toEqual([1, 2, 3])
    expect(goalTrail(rec.durable)).toEqual([
      [1, 0],
      [1, 1],
      [1, 2],
      [2, 0],
    ])
    expectViewIsFold(goals, agent)
  })

  it('R32: several human followups all run before the next continuation', async () => {
    const g1 = gate()
    const { agent, goals, rec } = await inRound1([g1.reply, 'h1', 'h2', 'a2'], 2)
    agent.followup('human 1')
    agent.followup('human 2')
    g1.release('a1')
    await agent.whenIdle()
    expect(prompts(rec.durable)).toEqual(['go 1', 'human 1', 'human 2', 'go 2'])
    expectViewIsFold(goals, agent)
  })

  it('R32: a non-human followup does not hold continuations back', async () => {
    const g1 = gate()
    const { agent, goals, rec } = await inRound1([g1.reply, 'p', 'a2'], 2)
    agent.followup(PLUGIN_PROMPT)
    g1.release('a1')
    await agent.whenIdle()
    // The continuation is queued behind the plugin prompt at once (FIFO), not held back.
    const settled1 = rec.log.indexOf('settled(1,completed)')
    expect(rec.log.slice(settled1, settled1 + 3)).toEqual([
      'settled(1,completed)',
      'enqueue(go 2,queued)',
      'dequeue(plugin)',
    ])
    expect(rec.log).toContain('turn/start(3)')
    expectViewIsFold(goals, agent)
  })
  it('R8/R32: a parked human prompt does not stall the goal: it is claimed first, then the rounds go on', async () => {
    const g1 = gate()
    const { agent, goals, rec } = await inRound1([g1.reply, 'h', 'a2'], 2)
    agent.send('parked human', { target: 'next-turn', wakeup: false })
    g1.release('a1')
    await agent.whenIdle()
    expect(prompts(rec.durable)).toEqual(['go 1', 'parked human', 'go 2'])
    expect(goals.view()).toMatchObject({ goal: { phase: 'blocked' }, rounds: 2 })
    expectViewIsFold(goals, agent)
  })

  it('R13/R32: a human prompt that the user hook blocks does not stall the goal', async () => {
    const g1 = gate()
    const { agent, goals, rec } = await inRound1([g1.reply, 'a2'], 2, {
      hooks: {
        promptSubmit: ({ content }) =>
          content[0]?.type === 'text' && content[0].text === 'spam'
            ? { kind: 'block', reason: 'no' }
            : { kind: 'allow' },
      },
    })
    agent.followup('spam')
    g1.release('a1')
    await agent.whenIdle()
    expect(rec.log).toContain('dequeue(spam)')
    expect(goals.view()).toMatchObject({ goal: { phase: 'blocked' }, rounds: 2 })
    expect(goalTrail(rec.durable)).toEqual([
      [1, 0],
      [1, 1],
      [1, 2],
      [2, 0],
    ])
    expectViewIsFold(goals, agent)
  })
})

describe('cancel, pause and staged changes (R32, V1)', () => {
  it('R32: a user cancel during a continuation disarms: no further rounds, not even after a human turn', async () => {
    const { agent, goals, rec, model, goal: g } = await inRound1([{ hang: true }, 'h'], 3)
    agent.cancel({ kind: 'user' })
    await agent.whenIdle()
    expect(fromLabel(rec.log, 'step/start(1.1)')).toEqual([
      'step/start(1.1)',
      'cancel(user)',
      ...aborted(),
      'idle',
    ])
    expect(goals.view()).toEqual({ goal: g, rounds: 1 })
    expectViewIsFold(goals, agent)
    agent.followup('human')
    await agent.whenIdle()
    expect(model.requests).toHaveLength(2)
    expect(rec.log.at(-2)).toBe('settled(2,completed)')
    expect(rec.log.filter((l) => l.startsWith('enqueue(go'))).toEqual(['enqueue(go 1,queued)'])
    expectViewIsFold(goals, agent)
  })

  it('R32: a user cancel with keepInbox disarms; a queued continuation is blocked at admission', async () => {
    const g1 = gate()
    const { agent, goals, rec, model } = await inRound1([g1.reply, { hang: true }], 3)
    // A waking non-human prompt, so that round 2 is queued behind it while it runs.
    agent.followup(PLUGIN_PROMPT)
    g1.release('a1')
    await rec.when('step/start(2.1)')
    expect(rec.log).toContain('enqueue(go 2,queued)')
    agent.cancel({ kind: 'user' }, { keepInbox: true })
    await agent.whenIdle()
    expect(fromLabel(rec.log, 'step/start(2.1)')).toEqual([
      'step/start(2.1)',
      'cancel(user)',
      ...aborted(2),
      'dequeue(go 2)',
      'idle',
    ])
    expect(model.requests).toHaveLength(2)
    expect(goals.view()).toMatchObject({ goal: { revision: 1, phase: 'active' }, rounds: 1 })
    expectViewIsFold(goals, agent)
  })

  it('R32: pause while a continuation is queued: the change is staged at once and the continuation is blocked', async () => {
    const g1 = gate()
    const g2 = gate()
    const { agent, goals, rec, model, goal: g } = await inRound1([g1.reply, g2.reply], 3)
    agent.followup(PLUGIN_PROMPT)
    g1.release('a1')
    await rec.when('step/start(2.1)')
    expect(rec.log).toContain('enqueue(go 2,queued)')
    const events = agent.session.events.length
    const paused = goals.pause()
    expect(paused).toEqual({ ...g, revision: 2, phase: 'paused' })
    // Staged in the running turn: view() shows it at once, the transcript not yet.
    expect(goals.view()).toEqual({ goal: paused, rounds: 1 })
    expect(agent.session.events.length).toBe(events)
    expect(foldGoal(agent.session.events)).toEqual({ goal: g, rounds: 1 })
    g2.release('p')
    await agent.whenIdle()
    expect(fromLabel(rec.log, 'step/start(2.1)')).toEqual([
      'step/start(2.1)',
      'assistant(p)',
      changed(paused),
      'step/end(2.1)',
      'turn/end(2,completed)',
      'settled(2,completed)',
      'dequeue(go 2)',
      'idle',
    ])
    expect(model.requests).toHaveLength(2)
    expect(goals.view()).toEqual({ goal: paused, rounds: 1 })
    expectViewIsFold(goals, agent)
  })

  it('R32: a mutation while a round runs is staged, shown by view() at once, and lands at the next boundary', async () => {
    const g1 = gate()
    const { agent, goals, rec } = setup([g1.reply, 'a2'])
    const g = goals.create({ objective: 'old', maxRounds: 2 })
    await rec.when('step/start(1.1)')
    const views: GoalView[] = []
    goals.view$.subscribe((v) => views.push(v))
    const edited = goals.edit({ objective: 'new' }, 1)
    expect(edited).toEqual({ ...g, revision: 2, objective: 'new' })
    expect(goals.view()).toEqual({ goal: edited, rounds: 1 })
    expect(views.at(-1)).toEqual({ goal: edited, rounds: 1 })
    expect(foldGoal(agent.session.events).goal).toEqual(g)
    // Compare-and-set sees the staged revision.
    expectRefused({ agent, goals, rec }, () => goals.edit({ objective: 'x' }, 1), GoalRevisionConflict)
    g1.release('a1')
    await agent.whenIdle()
    const at = rec.log.indexOf('assistant(a1)')
    expect(rec.log.slice(at, at + 4)).toEqual([
      'assistant(a1)',
      changed(edited),
      'step/end(1.1)',
      'turn/end(1,completed)',
    ])
    // The next round runs at the new revision.
    expect(goalTrail(rec.durable)).toEqual([
      [1, 0],
      [1, 1],
      [2, 0],
      [2, 2],
      [3, 0],
    ])
    expectViewIsFold(goals, agent)
  })

  it('V1: a cancel while a goal change is staged keeps it (appended after turn/end); view equals fold', async () => {
    const { agent, goals, rec, goal: g } = await inRound1([{ hang: true }], 3)
    const edited = goals.edit({ objective: 'p' })
    agent.cancel({ kind: 'user' })
    await agent.whenIdle()
    expect(fromLabel(rec.log, 'step/start(1.1)')).toEqual([
      'step/start(1.1)',
      'cancel(user)',
      'step/end(1.1)',
      'turn/end(1,aborted)',
      changed(edited),
      'settled(1,aborted)',
      'idle',
    ])
    expect(goals.view()).toEqual({ goal: { ...g, revision: 2, objective: 'p' }, rounds: 1 })
    expectViewIsFold(goals, agent)
  })

  it('V1: a pause staged during a continuation admission and then cancelled still lands; view equals fold', async () => {
    const { agent, rec, goals } = setup([], GO, {
      // A slow user hook: the change is made while the continuation's admission is open.
      hooks: { promptSubmit: () => NEVER },
    })
    const g = goals.create({ objective: 'o', maxRounds: 3 })
    await rec.when('dequeue(go 1)')
    const paused = goals.pause()
    agent.cancel({ kind: 'user' })
    await agent.whenIdle()
    expect(fromLabel(rec.log, 'dequeue(go 1)')).toEqual([
      'dequeue(go 1)',
      'cancel(user)',
      changed(paused),
      'idle',
    ])
    expect(goals.view()).toEqual({ goal: { ...g, revision: 2, phase: 'paused' }, rounds: 0 })
    expectViewIsFold(goals, agent)
  })

  it('R26/R34: a cancel with keepInbox while a goal change is staged, with nothing queued: at rest view equals fold', async () => {
    const { agent, goals } = await inRound1([{ hang: true }], 3)
    const paused = goals.pause()
    agent.cancel({ kind: 'user' }, { keepInbox: true })
    await agent.whenIdle()
    expect(goals.view()).toEqual({ goal: paused, rounds: 1 })
    expectViewIsFold(goals, agent)
  })

  it('R26/R32: after a keepInbox cancel with a staged change, later changes keep the transcript revisions in order', async () => {
    const { agent, goals } = await inRound1([{ hang: true }, 'a', 'b', 'c', 'd'], 3)
    goals.pause()
    agent.cancel({ kind: 'user' }, { keepInbox: true })
    await agent.whenIdle()
    goals.resume()
    await agent.whenIdle()
    agent.followup('human')
    await agent.whenIdle()
    const revisions = goalSources(agent.session.events)
      .filter((s) => s.round === 0)
      .map((s) => s.revision)
    expect(revisions).toEqual(revisions.map((_, i) => i + 1))
    expectViewIsFold(goals, agent)
  })
})

describe('refused calls change nothing (R32)', () => {
  it('R32: edit with a stale expectedRevision throws GoalRevisionConflict and changes nothing', async () => {
    const { agent, goals, rec } = setup()
    const ctx = { agent, goals, rec }
    goals.create({ objective: 'a' })
    goals.pause()
    const b = goals.edit({ objective: 'b' }, 2)
    expect(b.revision).toBe(3)
    const error = expectRefused(
      ctx,
      () => goals.edit({ objective: 'c' }, 2),
      GoalRevisionConflict,
    ) as GoalRevisionConflict
    expect(error.expected).toBe(2)
    expect(error.actual).toBe(3)
    expect(error.message).toMatch(/revision 2.*revision 3/)
    expectRefused(ctx, () => goals.edit({ objective: 'c' }, 4), GoalRevisionConflict)
    expect(goals.edit({ objective: 'c' }, 3).revision).toBe(4)
    await agent.whenIdle()
    expect(goals.view().goal).toMatchObject({ revision: 4, objective: 'c', phase: 'paused' })
    expectViewIsFold(goals, agent)
  })

  it('R2/R32: invalid inputs throw InvalidInputError naming the call, and change nothing', async () => {
    const { agent, goals, rec } = setup()
    const ctx = { agent, goals, rec }
    const bad = (value: unknown) => value as never
    for (const input of [
      undefined,
      null,
      'ship it',
      {},
      { objective: '' },
      { objective: 7 },
      { objective: 'o', maxRounds: 0 },
      { objective: 'o', maxRounds: -1 },
      { objective: 'o', maxRounds: 1.5 },
      { objective: 'o', maxRounds: '3' },
      { objective: 'o', extra: true },
    ]) {
      expectRefused(ctx, () => goals.create(bad(input)), InvalidInputError, /^create\(\)/)
    }
    goals.create({ objective: 'o' })
    goals.pause()
    for (const [patch, revision] of [
      [null, undefined],
      [{ objective: '' }, undefined],
      [{ objective: 1 }, undefined],
      [{ maxRounds: 0 }, undefined],
      [{ maxRounds: 2.5 }, undefined],
      [{ phase: 'active' }, undefined],
      [{ objective: 'x' }, 0],
      [{ objective: 'x' }, 1.5],
      [{ objective: 'x' }, '2'],
    ] as const) {
      expectRefused(ctx, () => goals.edit(bad(patch), bad(revision)), InvalidInputError, /^edit\(\)/)
    }
    for (const reason of [
      undefined,
      {},
      { code: '', message: 'm' },
      { code: 'c' },
      { code: 1, message: 'm' },
      { code: 'c', message: 'm', extra: 1 },
    ]) {
      expectRefused(ctx, () => goals.block(bad(reason)), InvalidInputError, /^block\(\)/)
    }
    await agent.whenIdle()
    expect(goals.view().goal).toMatchObject({ revision: 2, phase: 'paused' })
    expectViewIsFold(goals, agent)
  })

  it('R32: calls in the wrong phase throw GoalStateError and change nothing', async () => {
    const { agent, goals, rec } = setup()
    const ctx = { agent, goals, rec }
    const all = {
      create: () => goals.create({ objective: 'again' }),
      edit: () => goals.edit({ objective: 'x' }),
      pause: () => goals.pause(),
      resume: () => goals.resume(),
      complete: () => goals.complete(),
      block: () => goals.block({ code: 'c', message: 'm' }),
      clear: () => goals.clear(),
    }
    const refused = (names: (keyof typeof all)[]) => {
      for (const name of names) expectRefused(ctx, all[name], GoalStateError, new RegExp(`^${name}\\(\\)`))
    }
    // No goal.
    refused(['edit', 'pause', 'resume', 'complete', 'block', 'clear'])
    // Active (before its first round is admitted).
    goals.create({ objective: 'o' })
    refused(['create', 'resume'])
    // Paused.
    goals.pause()
    refused(['create', 'pause'])
    // Blocked.
    goals.block({ code: 'c', message: 'm' })
    refused(['create', 'pause', 'block'])
    // Complete.
    goals.complete()
    refused(['pause', 'resume', 'complete', 'block'])
    // Cleared.
    goals.clear()
    refused(['edit', 'pause', 'resume', 'complete', 'block', 'clear'])
    await agent.whenIdle()
    expect(goals.view()).toEqual({ goal: undefined, rounds: 0 })
    expectViewIsFold(goals, agent)
  })
})

describe('resume from a file store (R37)', () => {
  let dir: string
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'steerable-goals-'))
  })
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true })
  })
  const readEvents = (path: string): SessionEvent[] =>
    readFileSync(path, 'utf8')
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as SessionEvent)

  it('R37: a new agent and controller on the same file see the same goal; resume() continues its rounds', async () => {
    const path = join(dir, 'session.jsonl')
    const g2 = gate()
    const { agent: first, rec: rec1, goals: goals1 } = setup(['a1', g2.reply], GO, { store: fileStore(path) })
    const g = goals1.create({ objective: 'o', maxRounds: 3 })
    await rec1.when('step/start(2.1)')
    goals1.pause()
    g2.release('a2')
    await first.whenIdle()
    const before = goals1.view()
    expect(before).toEqual({ goal: { ...g, revision: 2, phase: 'paused' }, rounds: 2 })
    expectViewIsFold(goals1, first)
    await first.dispose()

    const { agent: second, model, rec: rec2, goals: goals2 } = setup(['a3'], GO, { store: fileStore(path) })
    expect(goals2.view()).toEqual(before)
    expectViewIsFold(goals2, second)
    goals2.resume()
    await second.whenIdle()
    expect(model.requests.map((r) => r.turn)).toEqual([3])
    expect(goalTrail(rec2.durable)).toEqual([
      [3, 0],
      [3, 3],
      [4, 0],
    ])
    expect(goals2.view()).toMatchObject({
      goal: { goalId: g.goalId, revision: 4, phase: 'blocked', blocked: { code: 'round-cap-reached' } },
      rounds: 3,
    })
    expectViewIsFold(goals2, second)
    await second.dispose()
    expect(foldGoal(readEvents(path))).toEqual(goals2.view())
  })

  it('R37: an active goal resumed from the store continues after the next completed turn', async () => {
    const path = join(dir, 'session.jsonl')
    const {
      agent: first,
      rec: rec1,
      goals: goals1,
    } = setup(['a1', { hang: true }], GO, { store: fileStore(path) })
    const g = goals1.create({ objective: 'o', maxRounds: 3 })
    await rec1.when('step/start(2.1)')
    first.cancel({ kind: 'user' })
    await first.whenIdle()
    const before = goals1.view()
    expect(before).toEqual({ goal: g, rounds: 2 })
    await first.dispose()

    const { agent: second, rec: rec2, goals: goals2 } = setup(['h', 'a3'], GO, { store: fileStore(path) })
    expect(goals2.view()).toEqual(before)
    second.followup('human')
    await second.whenIdle()
    expect(goalTrail(rec2.durable)).toEqual([
      [1, 3],
      [2, 0],
    ])
    expect(rec2.log).toContain('enqueue(go 3,queued)')
    expect(goals2.view()).toMatchObject({ goal: { revision: 2, phase: 'blocked' }, rounds: 3 })
    expectViewIsFold(goals2, second)
    await second.dispose()
  })

  it('R37: resume from history (an array) gives the same view', async () => {
    const first = createAgent({ model: scriptedModel(['a1']) })
    const goals1 = createGoalController(first, GO)
    goals1.create({ objective: 'o', maxRounds: 1 })
    await first.whenIdle()
    const second = createAgent({ model: scriptedModel([]), history: first.session.events })
    const goals2 = createGoalController(second, GO)
    expect(goals2.view()).toEqual(goals1.view())
    expectViewIsFold(goals2, second)
  })
})
