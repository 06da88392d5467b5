/**
 * The event vocabulary's schemas against the hand-written types they meet: the message data model
 * of `contracts/messages.ts` (a usage, a cancel cause, a tool block, an inbox message) and the
 * unions of `contracts/` an event holds, and every event: the public event types of
 * `contracts/events.ts` are written by hand (published declarations must not name zod's
 * internal types, which differ between the zod releases an app may have), and each must agree
 * with the schema that validates it. Each line fails the type check when a schema and its type
 * disagree.
 */
import { describe, expectTypeOf, it } from 'vitest'
import type {
  AgentCancelCause,
  AgentEvent,
  AgentEventOf,
  AgentMessage,
  AgentStatus,
  DiscardReason,
  GoalChange,
  InboxPlacement,
  SessionEvent,
  SessionEventOf,
  ToolCallBlock,
  ToolResultBlock,
  ToolResultCode,
  TurnEndReason,
  Usage,
} from '../../src/index.js'
import type { goalChangeUnion } from '../../src/messages/readGoalMessage.js'
import type {
  cancelCauseSchema,
  toolCallBlockSchema,
  toolResultBlockSchema,
} from '../../src/messages/schemas.js'
import type { EventsLostEvent, eventsLostSchema } from '../../src/postgres/rows/liveEvents.js'
import type { AgentEvent as SchemaAgentEvent } from '../../src/vocabulary/agentEvents.js'
import type { Defined } from '../../src/vocabulary/frozen.js'
import type { usage } from '../../src/vocabulary/leaves.js'
import type { agentMessage } from '../../src/vocabulary/liveInboxEvents.js'
import type { SessionEvent as SchemaSessionEvent } from '../../src/vocabulary/sessionEvents.js'
import type { turnEndReason } from '../../src/vocabulary/turnEvents.js'

/** Mutually assignable: what a reader of the event sees is the hand-written type, both ways. */
type Agree<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false

/** The event types (by their `type`) whose hand-written type and schema disagree: `never` when none do. */
type Disagreeing<Hand extends { type: string }, Schema extends { type: string }> = {
  [T in Hand['type'] | Schema['type']]: Agree<
    Extract<Hand, { type: T }>,
    Extract<Schema, { type: T }>
  > extends true
    ? never
    : T
}[Hand['type'] | Schema['type']]

describe('the vocabulary agrees with the hand-written types', () => {
  it('R33: a goal change is the schema of `GoalChange`', () => {
    expectTypeOf<Agree<Defined<typeof goalChangeUnion>, GoalChange>>().toEqualTypeOf<true>()
  })
  it("R56: a remote session's events-lost marker is its schema", () => {
    expectTypeOf<Agree<Defined<typeof eventsLostSchema>, EventsLostEvent>>().toEqualTypeOf<true>()
  })
  it('every durable and every live event: its hand-written type is its schema', () => {
    expectTypeOf<Disagreeing<SessionEvent, SchemaSessionEvent>>().toEqualTypeOf<never>()
    expectTypeOf<Disagreeing<AgentEvent, SchemaAgentEvent>>().toEqualTypeOf<never>()
  })
  it('R73: a usage is the schema of `Usage`', () => {
    expectTypeOf<Agree<Defined<typeof usage>, Usage>>().toEqualTypeOf<true>()
    expectTypeOf<SessionEventOf<'assistant/message'>['data']['usage']>().toEqualTypeOf<Usage | undefined>()
  })
  it('the tool blocks of tool/call and tool/result are `ToolCallBlock` and `ToolResultBlock`', () => {
    expectTypeOf<Agree<Defined<typeof toolCallBlockSchema>, ToolCallBlock>>().toEqualTypeOf<true>()
    expectTypeOf<Agree<Defined<typeof toolResultBlockSchema>, ToolResultBlock>>().toEqualTypeOf<true>()
    expectTypeOf<
      Agree<SessionEventOf<'tool/result'>['data']['result'], ToolResultBlock>
    >().toEqualTypeOf<true>()
    expectTypeOf<Agree<SessionEventOf<'tool/call'>['data']['call'], ToolCallBlock>>().toEqualTypeOf<true>()
  })
  it('a turn/end reason is the schema of `TurnEndReason`', () => {
    expectTypeOf<Agree<Defined<typeof turnEndReason>, TurnEndReason>>().toEqualTypeOf<true>()
    expectTypeOf<SessionEventOf<'turn/end'>['data']['reason']>().toEqualTypeOf<TurnEndReason>()
  })
  it('a live inbox message is an `AgentMessage`', () => {
    expectTypeOf<Agree<Defined<typeof agentMessage>, AgentMessage>>().toEqualTypeOf<true>()
    expectTypeOf<Agree<AgentEventOf<'agent/inbox/dequeue'>['message'], AgentMessage>>().toEqualTypeOf<true>()
  })
  it('the cancel cause, status, placement, discard reason and result code are the contract unions', () => {
    expectTypeOf<Agree<Defined<typeof cancelCauseSchema>, AgentCancelCause>>().toEqualTypeOf<true>()
    expectTypeOf<AgentEventOf<'agent/cancel-requested'>['cause']>().toEqualTypeOf<AgentCancelCause>()
    expectTypeOf<AgentEventOf<'agent/status'>['status']>().toEqualTypeOf<AgentStatus>()
    expectTypeOf<AgentEventOf<'agent/inbox/enqueue'>['placement']>().toEqualTypeOf<InboxPlacement>()
    expectTypeOf<AgentEventOf<'agent/inbox/discard'>['reason']>().toEqualTypeOf<DiscardReason>()
    expectTypeOf<AgentEventOf<'agent/tool/end'>['code']>().toEqualTypeOf<ToolResultCode | undefined>()
  })
  it('the events are read-only, and an optional key is absent, never undefined', () => {
    const event = {} as SessionEventOf<'step/end'>
    // @ts-expect-error read-only
    event.data = { turn: 1, step: 1 }
    // @ts-expect-error an optional key holds no undefined (exactOptionalPropertyTypes)
    const withUndefined: SessionEventOf<'step/end'>['data'] = { turn: 1, step: 1, usage: undefined }
    expectTypeOf(withUndefined).toEqualTypeOf<SessionEventOf<'step/end'>['data']>()
  })
})
