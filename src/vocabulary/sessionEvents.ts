/**
 * The durable vocabulary (docs/contract.md, section 4): every event a transcript holds, one
 * schema each, in the group files. The types of `contracts/events.ts` are this union's output,
 * and the stores check what they read with it (R37), so an event added to a group is written,
 * typed and read back alike.
 */
import * as z from 'zod/mini'
import type { Defined } from './frozen.js'
import { historyEvents } from './historyEvents.js'
import { pauseEvents } from './pauseEvents.js'
import { toolEvents } from './toolEvents.js'
import { turnEvents } from './turnEvents.js'

/** One durable event, validated strictly: unknown types and keys are refused. */
export const sessionEventSchema = z.discriminatedUnion('type', [
  ...turnEvents,
  ...toolEvents,
  ...pauseEvents,
  ...historyEvents,
])

/** A durable event as stored: `seq` = 1, 2, 3 … per session. Deep-frozen. */
export type SessionEvent = Defined<typeof sessionEventSchema>
export type SessionEventType = SessionEvent['type']
/** Durable event payloads by type. */
export type SessionEventDataMap = { [T in SessionEventType]: Extract<SessionEvent, { type: T }>['data'] }
