/**
 * The key of a tool call (R61, R62, R71): `"turn.step.index"`, its position in the session. The
 * model chooses call ids, and may repeat one in a step or leave it empty; a position it cannot
 * collide names each call once, so every call can be decided and gets exactly one result (V9).
 */
export const callKey = (turn: number, step: number, index: number): string => `${turn}.${step}.${index}`
