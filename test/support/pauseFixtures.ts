/**
 * Fixtures for the table tests of paused turns (approvals R61–R66, budgets R80): a step whose
 * calls are `c1` (`shell`, the one that asks for approval) and `c2` (`read`), the states around
 * its pause, and the inputs that end it. Built on `machineFixtures.ts`.
 */
import type { ToolResultBlock } from '../../src/contracts/messages.js'
import type { ApprovalSlot, Turn } from '../../src/machine/activity.js'
import type { CallAt } from '../../src/machine/callRef.js'
import type { Decision, Input } from '../../src/machine/inputs.js'
import type { DeliveryState } from '../../src/machine/state.js'
import { call, draft, durable, live, type make, msg, text, turn, turning } from './machineFixtures.js'

export const c1 = call('c1', 'shell')
export const c2 = call('c2')
/** The step the model answered with two calls. */
export const twoCalls = draft({ content: [text('t'), c1, c2], toolCalls: [c1, c2], finish: 'tool-calls' })

type Slots = readonly (ApprovalSlot | undefined)[]
type Patch = Parameters<typeof make>[0]

/** The step's calls are in, their `needsApproval` answers not yet. */
export const inTools = (t: Partial<Turn> = {}, patch: Patch = {}): DeliveryState =>
  turning({ phase: 'tools', draft: twoCalls, ...t }, patch)

/** The step waits for decisions on the calls whose slot is `'pending'` (R61). */
export const pausedOn = (slots: Slots, t: Partial<Turn> = {}, patch: Patch = {}): DeliveryState =>
  inTools({ approvals: slots, ...t }, { status: 'paused', ...patch })

/** `c1` waits for approval; `c2` needed none and runs. */
export const paused = (t: Partial<Turn> = {}, patch: Patch = {}): DeliveryState =>
  pausedOn(['pending', undefined], t, patch)

export const checked = (needs: readonly boolean[], failures: readonly unknown[] = [], step = 1): Input => ({
  type: 'approvals/checked',
  activity: 1,
  step,
  needs,
  failures,
})

const USER_SOURCE = { kind: 'user' } as const

/** The fixture step's call `callId` by its place: `c1` first, `c2` second (R62 names calls so). */
const at = (callId: string): CallAt => ({ activity: 1, step: 1, index: callId === 'c2' ? 1 : 0 })

export const approve = (callId: string, more: Partial<Decision & CallAt> = {}): Input => ({
  type: 'decide',
  ...at(callId),
  callId,
  decision: 'approved',
  source: USER_SOURCE,
  ...more,
})
export const deny = (callId: string, reason?: string, more: Partial<Decision & CallAt> = {}): Input => ({
  type: 'decide',
  ...at(callId),
  callId,
  decision: 'denied',
  source: USER_SOURCE,
  ...(reason === undefined ? {} : { reason }),
  ...more,
})
export const timeout = (index: number, step = 1, activity = 1): Input => ({
  type: 'approval/timeout',
  activity,
  step,
  index,
})
/** `owed`: the calls the reopened log shows to run again (approved or needing none, no result). */
export const resume = (owed: readonly number[] = [], activity = 1): Input => ({
  type: 'turn/resume',
  activity,
  owed,
})

/** The answer of call `index` that needed no approval (or was approved). */
export const ran = (index: number, id: string, step = 1): Input => ({
  type: 'tool/result',
  activity: 1,
  step,
  index,
  result: { type: 'tool-result', toolCallId: id, content: [text(`ran ${id}`)] },
  concluded: false,
})

/** Sends with `onApproval: 'deny'` (R63): the text of each is its id. */
export const denyingSteer = (id: string): Input => ({
  type: 'queue',
  message: msg(id),
  target: 'next-step',
  wakeup: true,
  deny: true,
})
export const denyingFollowup = (id: string): Input => ({
  type: 'queue',
  message: msg(id),
  target: 'next-turn',
  wakeup: true,
  deny: true,
})
export const denyingInject = (id: string): Input => ({ type: 'inject', message: msg(id), deny: true })

/** The `tool/result` a denial records, as `deniedResult` writes it. */
export const deniedResultOf = (toolCallId: string, reason?: string): ToolResultBlock => ({
  type: 'tool-result',
  toolCallId,
  content: [
    {
      type: 'text',
      text:
        reason === undefined
          ? 'Denied: the user did not approve this call.'
          : `Denied: the user did not approve this call. Reason: ${reason}`,
    },
  ],
  isError: true,
  code: 'DENIED',
})

export const runningStatus = live({ type: 'agent/status', status: 'running' })

/** An `approval/decision` of step 1.1 by the user, with `data` on top. */
export const decisionOf = (data: Record<string, unknown>) =>
  durable('approval/decision', {
    turn: 1,
    step: 1,
    index: data.callId === 'c2' ? 1 : 0,
    source: { kind: 'user' },
    ...data,
  })

/** The state's activity: the tools phase of step 1.1 with `t` on top. */
export const inTurn = (t: Partial<Turn>) => ({ activity: turn({ phase: 'tools', draft: twoCalls, ...t }) })
