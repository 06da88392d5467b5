/**
 * The live vocabulary (docs/contract.md, section 4): every event `events$` emits, one schema each,
 * in the group files. The types of `contracts/events.ts` are this union's output; a PostgreSQL
 * follower checks what it receives with the same schemas (R56).
 */
import * as z from 'zod/mini'
import type { Defined } from './frozen.js'
import { liveInboxEvents } from './liveInboxEvents.js'
import { liveTurnEvents } from './liveTurnEvents.js'

/** Every live event's schema, for a union of its own (a follower adds its markers). */
export const agentEventSchemas = [...liveInboxEvents, ...liveTurnEvents] as const

/** One live event, validated strictly. */
export const agentEventSchema = z.discriminatedUnion('type', [...agentEventSchemas])

export type AgentEvent = Defined<typeof agentEventSchema>
export type AgentEventType = AgentEvent['type']
export type AgentEventOf<T extends AgentEventType> = Extract<AgentEvent, { type: T }>
