/**
 * The public surface of `steerable` (src/index.ts), checked by the compiler: `npx tsc -p
 * tsconfig.json` fails when a signature drifts. At run time these tests only call `expectTypeOf`;
 * the misuses below sit in a function nothing calls.
 */
import type { Observable, OperatorFunction } from 'rxjs'
import { describe, expectTypeOf, it } from 'vitest'
import {
  type Agent,
  type AgentEvent,
  type AgentMessageId,
  type AgentOptions,
  createAgent,
  type FollowupOptions,
  type ModelAdapter,
  type Outcome,
  type SendInput,
  type SendOptions,
  type SessionEvent,
  type StepText,
  sendTo,
} from '../../src/index.js'

describe('the public surface of steerable', () => {
  it('R82: the reactive handles and sendTo are typed', () => {
    expectTypeOf<Agent['window$']>().toEqualTypeOf<Observable<boolean>>()
    expectTypeOf<Agent['text$']>().toEqualTypeOf<Observable<StepText>>()
    expectTypeOf<Agent['reply$']>().returns.toEqualTypeOf<Observable<SessionEvent>>()
    expectTypeOf<Agent['outcome$']>().returns.toEqualTypeOf<Observable<Outcome>>()
    expectTypeOf(sendTo).returns.toEqualTypeOf<OperatorFunction<SendInput, AgentMessageId>>()
    expectTypeOf(sendTo).toBeCallableWith({} as Agent, 'steer')
  })

  it('createAgent takes AgentOptions and returns an Agent', () => {
    expectTypeOf(createAgent).parameters.toEqualTypeOf<[options: AgentOptions]>()
    expectTypeOf(createAgent).returns.toEqualTypeOf<Agent>()
  })

  it('send returns an AgentMessageId, and its options are required', () => {
    expectTypeOf<Agent['send']>().returns.toEqualTypeOf<AgentMessageId>()
    expectTypeOf<Agent['send']>().parameters.toEqualTypeOf<[input: SendInput, options: SendOptions]>()
  })

  it('followup returns an AgentMessageId, and its options are optional', () => {
    expectTypeOf<Agent['followup']>().returns.toEqualTypeOf<AgentMessageId>()
    expectTypeOf<Agent['followup']>().parameters.toEqualTypeOf<
      [input: SendInput, options?: FollowupOptions]
    >()
    expectTypeOf<Agent['followup']>().toBeCallableWith('x')
  })

  it('events$ is an Observable of AgentEvent, transcript$ an Observable of SessionEvent', () => {
    expectTypeOf<Agent['events$']>().toEqualTypeOf<Observable<AgentEvent>>()
    expectTypeOf<Agent['transcript$']>().toEqualTypeOf<Observable<SessionEvent>>()
  })

  it('outcome takes an AgentMessageId and returns a Promise of its Outcome', () => {
    expectTypeOf<Agent['outcome']>().parameters.toEqualTypeOf<[id: AgentMessageId]>()
    expectTypeOf<Agent['outcome']>().returns.toEqualTypeOf<Promise<Outcome>>()
  })

  it('refuses a misspelled option, a send without options and a target that does not exist', () => {
    const misuses = (agent: Agent, model: ModelAdapter): void => {
      // @ts-expect-error: the option is `tools`
      createAgent({ model, tool: [] })
      // @ts-expect-error: send needs its options (followup, steer and inject preset them)
      agent.send('x')
      // @ts-expect-error: a target is 'next-turn' or 'next-step'
      agent.send('x', { target: 'now', wakeup: true })
    }
    expectTypeOf(misuses).toBeFunction()
  })

  it("does not export the pipeline's own forms of a send", () => {
    // @ts-expect-error: a send as it enters the pipeline is internal
    expectTypeOf<import('../../src/index.js').AcceptedSend>().toBeObject()
    // @ts-expect-error: a send the reducer queues is internal
    expectTypeOf<import('../../src/index.js').QueueSend>().toBeObject()
    // @ts-expect-error: a send the reducer stages as context is internal
    expectTypeOf<import('../../src/index.js').InjectSend>().toBeObject()
  })
})
