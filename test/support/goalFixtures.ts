/** Fixtures of the goal track tables: goals, views, tracks and transcript events, deep-frozen. */
import type { SessionEvent } from '../../src/contracts/events.js'
import type { GoalChange, GoalState, GoalView } from '../../src/contracts/goals.js'
import type { AgentMessageId } from '../../src/contracts/messages.js'
import { type GoalTrack, type GoalTrackEvent, NEW_TRACK } from '../../src/goals/goalTrack.js'
import { renderGoalChange } from '../../src/messages/goalRender.js'
import { deepFreeze } from './deepFreeze.js'

export const G = '01GOALAAAAAAAAAAAAAAAAAAAA'
export const H = '01GOALBBBBBBBBBBBBBBBBBBBB'
export const goal = (patch: Partial<GoalState> = {}): GoalState =>
  deepFreeze({ goalId: G, revision: 1, objective: 'ship it', phase: 'active', maxRounds: 3, ...patch })
export const view = (g: GoalState | undefined, rounds = 0): GoalView => deepFreeze({ goal: g, rounds })
export const track = (patch: Partial<GoalTrack> = {}): GoalTrack => deepFreeze({ ...NEW_TRACK, ...patch })
export const id = (s: string) => s as AgentMessageId
export const ev = (e: GoalTrackEvent): GoalTrackEvent => deepFreeze(e)

export const changeEvent = (seq: number, change: GoalChange): SessionEvent =>
  deepFreeze({
    seq,
    type: 'user/message',
    data: {
      content: [{ type: 'text', text: renderGoalChange(change) }],
      source: { kind: 'goal', goalId: change.goalId, revision: change.revision, round: 0, change },
    },
  } as SessionEvent)
export const roundEvent = (seq: number, round: number, revision = 1): SessionEvent =>
  deepFreeze({
    seq,
    type: 'user/message',
    data: {
      content: [{ type: 'text', text: `continue (round ${round})` }],
      source: { kind: 'goal', goalId: G, revision, round },
    },
  } as SessionEvent)
export const turnStart: SessionEvent = deepFreeze({
  seq: 1,
  type: 'turn/start',
  data: { turn: 1, trigger: { kind: 'retry' } },
} as SessionEvent)
