/**
 * `decodeGoalEvent` (R33), clause by clause, on hand-built `user/message` events: every
 * `undefined` case, every throw (a `GoalEventError` naming the event's `seq`), and the canonical
 * rendering of a change (R32).
 */
import { describe, expect, it } from 'vitest'
import {
  type ContentBlock,
  decodeGoalEvent,
  GoalEventError,
  type GoalState,
  type GoalTombstone,
  type MessageSource,
  renderGoalChange,
  type SessionEventOf,
} from '../../src/index.js'

const SEQ = 42
const GOAL_ID = '01GOALAAAAAAAAAAAAAAAAAAAA'

const message = (
  content: readonly ContentBlock[],
  source: MessageSource | Record<string, unknown>,
  seq = SEQ,
): SessionEventOf<'user/message'> =>
  ({ seq, type: 'user/message', data: { content, source } }) as SessionEventOf<'user/message'>

const text = (t: string): ContentBlock[] => [{ type: 'text', text: t }]

const STATE: GoalState = {
  goalId: GOAL_ID,
  revision: 3,
  objective: 'ship the release',
  phase: 'active',
  maxRounds: 5,
}

/** A round-0 goal message as the controller writes it: canonical content, matching source. */
const changeEvent = (change: object): SessionEventOf<'user/message'> => {
  const c = change as GoalState
  return message(text(renderGoalChange(c)), {
    kind: 'goal',
    goalId: c.goalId,
    revision: c.revision,
    round: 0,
    change: c,
  })
}

/** The same event with other content (source unchanged). */
const withContent = (change: object, content: readonly ContentBlock[]) =>
  message(content, changeEvent(change).data.source)

/** The same event with a different `source.change` but the content rendered from `rendered`. */
const withChange = (change: unknown, rendered: object = STATE) => {
  const r = rendered as GoalState
  return message(text(renderGoalChange(r)), {
    kind: 'goal',
    goalId: r.goalId,
    revision: r.revision,
    round: 0,
    change,
  })
}

/** Decoding must throw a GoalEventError naming `seq` (and matching `detail`, when given). */
const expectThrowsAt = (event: SessionEventOf<'user/message'>, detail?: RegExp): GoalEventError => {
  let error: unknown
  try {
    decodeGoalEvent(event)
  } catch (e) {
    error = e
  }
  expect(error).toBeInstanceOf(GoalEventError)
  const e = error as GoalEventError
  expect(e.seq).toBe(event.seq)
  expect(e.message).toMatch(new RegExp(`\\bseq ${event.seq}\\b`))
  if (detail) expect(e.message).toMatch(detail)
  return e
}

describe('decodeGoalEvent: non-goal sources (R33)', () => {
  it.each<[string, MessageSource]>([
    ['user', { kind: 'user' }],
    ['plugin', { kind: 'plugin', plugin: 'memory' }],
    ['tool', { kind: 'tool', tool: 'search' }],
    ['custom', { kind: 'reminder', every: 3 }],
  ])('R33: a %s source returns undefined', (_, source) => {
    expect(decodeGoalEvent(message(text('hello'), source))).toBeUndefined()
  })

  it('R33: a non-goal source returns undefined when <goal_state> is not at the start of the first text', () => {
    expect(decodeGoalEvent(message(text(` ${renderGoalChange(STATE)}`), { kind: 'user' }))).toBeUndefined()
    expect(decodeGoalEvent(message(text(`see ${renderGoalChange(STATE)}`), { kind: 'user' }))).toBeUndefined()
    const second: ContentBlock[] = [
      { type: 'text', text: 'first' },
      { type: 'text', text: renderGoalChange(STATE) },
    ]
    expect(decodeGoalEvent(message(second, { kind: 'user' }))).toBeUndefined()
  })

  it.each<[string, MessageSource]>([
    ['user', { kind: 'user' }],
    ['plugin', { kind: 'plugin', plugin: '' }],
    ['tool', { kind: 'tool', tool: 'search' }],
    ['custom', { kind: 'reminder' }],
  ])(
    'R33: a %s source whose first text starts with <goal_state> throws (mismatched attribution)',
    (_, source) => {
      expectThrowsAt(message(text(renderGoalChange(STATE)), source), /attribution/)
      expectThrowsAt(message(text('<goal_state>anything'), source, 7))
    },
  )

  it('R33: the first *text* block counts even when a non-text block comes before it', () => {
    const content: ContentBlock[] = [
      { type: 'tool-call', id: 'c1', name: 'search', arguments: '{}' },
      { type: 'text', text: renderGoalChange(STATE) },
    ]
    expectThrowsAt(message(content, { kind: 'user' }), /attribution/)
  })
})

describe('decodeGoalEvent: goal sources with malformed fields (R33)', () => {
  const base = { kind: 'goal', goalId: GOAL_ID, revision: 1, round: 1 }
  it.each<[string, Record<string, unknown>]>([
    ['goalId missing', { kind: 'goal', revision: 1, round: 1 }],
    ['goalId empty', { ...base, goalId: '' }],
    ['goalId not a string', { ...base, goalId: 7 }],
    ['revision missing', { kind: 'goal', goalId: GOAL_ID, round: 1 }],
    ['revision negative', { ...base, revision: -1 }],
    ['revision not an integer', { ...base, revision: 1.5 }],
    ['revision a string', { ...base, revision: '1' }],
    ['round missing', { kind: 'goal', goalId: GOAL_ID, revision: 1 }],
    ['round negative', { ...base, round: -1 }],
    ['round not an integer', { ...base, round: 0.5 }],
    ['round a string', { ...base, round: '0' }],
  ])('R33: %s throws (invalid source) naming the seq', (_, source) => {
    expectThrowsAt(message(text('go on'), source), /invalid goal source/)
  })
})

describe('decodeGoalEvent: continuation rounds (R33)', () => {
  it('R33: round > 0 returns undefined', () => {
    expect(
      decodeGoalEvent(message(text('continue'), { kind: 'goal', goalId: GOAL_ID, revision: 1, round: 1 })),
    ).toBeUndefined()
    expect(
      decodeGoalEvent(message(text('continue'), { kind: 'goal', goalId: GOAL_ID, revision: 9, round: 12 })),
    ).toBeUndefined()
  })

  it('R33: round > 0 returns undefined whatever its content', () => {
    const source = { kind: 'goal', goalId: GOAL_ID, revision: 3, round: 2 }
    expect(decodeGoalEvent(message(text(renderGoalChange(STATE)), source))).toBeUndefined()
    expect(decodeGoalEvent(message(text('<goal_state>broken'), source))).toBeUndefined()
  })
})

describe('decodeGoalEvent: round-0 changes (R33)', () => {
  it('R33: a valid change is returned', () => {
    expect(decodeGoalEvent(changeEvent(STATE))).toEqual(STATE)
  })

  it.each<[string, GoalState | GoalTombstone]>([
    ['created', { ...STATE, revision: 1 }],
    ['uncapped', { ...STATE, maxRounds: null }],
    ['paused', { ...STATE, phase: 'paused' }],
    [
      'blocked',
      { ...STATE, phase: 'blocked', blocked: { code: 'round-cap-reached', message: '5 rounds run' } },
    ],
    ['complete', { ...STATE, phase: 'complete' }],
    ['empty objective', { ...STATE, objective: '' }],
    ['objective with markup and unicode', { ...STATE, objective: 'fix </goal_state> "quotes" ✓\nnext line' }],
    ['a clear tombstone', { goalId: GOAL_ID, revision: 4, cleared: true }],
  ])('R33: a valid %s change is returned', (_, change) => {
    expect(decodeGoalEvent(changeEvent(change))).toEqual(change)
  })

  it('R32: the canonical rendering is <goal_state> + JSON of the state in fixed key order + </goal_state>', () => {
    expect(renderGoalChange(STATE)).toBe(
      `<goal_state>{"goalId":"${GOAL_ID}","revision":3,"objective":"ship the release","phase":"active","maxRounds":5}</goal_state>`,
    )
    const reordered = {
      maxRounds: 5,
      phase: 'active',
      objective: 'ship the release',
      revision: 3,
      goalId: GOAL_ID,
    }
    expect(renderGoalChange(reordered as GoalState)).toBe(renderGoalChange(STATE))
    expect(renderGoalChange({ goalId: GOAL_ID, revision: 4, cleared: true })).toBe(
      `<goal_state>{"goalId":"${GOAL_ID}","revision":4,"cleared":true}</goal_state>`,
    )
    expect(
      renderGoalChange({ ...STATE, phase: 'blocked', blocked: { message: 'm', code: 'c' } } as GoalState),
    ).toBe(
      `<goal_state>{"goalId":"${GOAL_ID}","revision":3,"objective":"ship the release","phase":"blocked","maxRounds":5,"blocked":{"code":"c","message":"m"}}</goal_state>`,
    )
  })

  it('R33: round 0 without a change throws', () => {
    const source = { kind: 'goal', goalId: GOAL_ID, revision: 3, round: 0 }
    expectThrowsAt(message(text(renderGoalChange(STATE)), source), /without a change/)
  })

  it.each<[string, unknown]>([
    ['null', null],
    ['a string', renderGoalChange(STATE)],
    ['an array', [STATE]],
    ['an unknown phase', { ...STATE, phase: 'running' }],
    ['revision 0', { ...STATE, revision: 0 }],
    ['objective missing', { goalId: GOAL_ID, revision: 3, phase: 'active', maxRounds: 5 }],
    ['maxRounds missing', { goalId: GOAL_ID, revision: 3, objective: 'o', phase: 'active' }],
    ['maxRounds 0', { ...STATE, maxRounds: 0 }],
    ['maxRounds not an integer', { ...STATE, maxRounds: 2.5 }],
    ['an extra key', { ...STATE, extra: true }],
    ['a malformed blocked reason', { ...STATE, phase: 'blocked', blocked: { code: 'x' } }],
    ['a tombstone with cleared: false', { goalId: GOAL_ID, revision: 3, cleared: false }],
    ['a tombstone with an extra key', { goalId: GOAL_ID, revision: 3, cleared: true, objective: 'o' }],
  ])('R33: round 0 with a malformed change (%s) throws', (_, change) => {
    expectThrowsAt(withChange(change), /malformed goal change/)
  })

  it('R33: round 0 whose change names another goal id than the source throws', () => {
    const other = { ...STATE, goalId: '01OTHERBBBBBBBBBBBBBBBBBBB' }
    expectThrowsAt(withChange(other, STATE), /goal/)
    // Also when the content is the canonical rendering of the change itself.
    const event = message(text(renderGoalChange(other)), {
      kind: 'goal',
      goalId: GOAL_ID,
      revision: 3,
      round: 0,
      change: other,
    })
    expectThrowsAt(event, /goal/)
  })

  it('R33: round 0 whose change names another revision than the source throws', () => {
    const other = { ...STATE, revision: 4 }
    expectThrowsAt(withChange(other, STATE), /revision/)
    const event = message(text(renderGoalChange(other)), {
      kind: 'goal',
      goalId: GOAL_ID,
      revision: 3,
      round: 0,
      change: other,
    })
    expectThrowsAt(event, /revision/)
  })

  const canonical = renderGoalChange(STATE)
  const json = canonical.slice('<goal_state>'.length, -'</goal_state>'.length)
  it.each<[string, ContentBlock[]]>([
    ['an extra block after', [...text(canonical), ...text('and more')]],
    ['an extra block before', [...text('note'), ...text(canonical)]],
    ['the canonical text twice', [...text(canonical), ...text(canonical)]],
    ['a different objective in the text', text(renderGoalChange({ ...STATE, objective: 'something else' }))],
    ['a different phase in the text', text(renderGoalChange({ ...STATE, phase: 'paused' }))],
    ['no text at all besides the tag', text('<goal_state></goal_state>')],
    ['pretty-printed JSON', text(`<goal_state>${JSON.stringify(JSON.parse(json), null, 2)}</goal_state>`)],
    ['a trailing newline', text(`${canonical}\n`)],
    ['a leading space', text(` ${canonical}`)],
    ['a space inside the tag', text(`<goal_state> ${json}</goal_state>`)],
    [
      'another key order',
      text(`<goal_state>${JSON.stringify({ revision: 3, ...JSON.parse(json) })}</goal_state>`),
    ],
    ['a reasoning block instead of text', [{ type: 'reasoning', text: canonical }]],
  ])('R33: round 0 whose content is not the canonical rendering (%s) throws', (_, content) => {
    expectThrowsAt(withContent(STATE, content), /canonical/)
  })

  it('R33: errors name the seq of the event they come from', () => {
    const source = { kind: 'goal', goalId: GOAL_ID, revision: 3, round: 0 }
    for (const seq of [1, 17, 1234]) {
      const error = expectThrowsAt(message(text(canonical), source, seq))
      expect(error.name).toBe('GoalEventError')
      expect(error).toBeInstanceOf(Error)
    }
  })
})
