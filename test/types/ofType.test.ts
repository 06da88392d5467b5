/**
 * The `ofType` operator's types: the output narrows to the given members of the stream's union,
 * and a type outside that union does not compile. Its behaviour is in marbles/operators/ofType.spec.ts.
 */
import { from, type Observable } from 'rxjs'
import { describe, expectTypeOf, it } from 'vitest'
import type {
  AgentEvent,
  InboxDequeueEvent,
  SessionEvent,
  SessionEventOf,
  StatusEvent,
} from '../../src/contracts/events.js'
import { ofType } from '../../src/operators/ofType.js'

describe('ofType', () => {
  it('narrows the output type to the given members', () => {
    const live$ = from<AgentEvent[]>([])
    expectTypeOf(live$.pipe(ofType('agent/status'))).toEqualTypeOf<Observable<StatusEvent>>()
    expectTypeOf(live$.pipe(ofType('agent/status', 'agent/inbox/dequeue'))).toEqualTypeOf<
      Observable<StatusEvent | InboxDequeueEvent>
    >()
    const durable$ = from<SessionEvent[]>([])
    expectTypeOf(durable$.pipe(ofType('user/message'))).toEqualTypeOf<
      Observable<SessionEventOf<'user/message'>>
    >()
    // @ts-expect-error: not a type of the stream's union
    live$.pipe(ofType('turn/start'))
  })
})
