import * as z from 'zod/mini'
import { countFromZero } from './leaves.js'

/** A live event's turn: 0 before the first turn (a live event may come before any). */
export const liveTurn = countFromZero

/**
 * One live event of the vocabulary: `{type, agentId, …}` with exactly these other keys. What
 * `events$` emits (not persisted); a PostgreSQL follower checks what arrives with it (R56).
 */
export const live = <T extends string, S extends z.core.$ZodLooseShape>(type: T, shape: S) =>
  z.strictObject({ type: z.literal(type), agentId: z.string(), ...shape })
