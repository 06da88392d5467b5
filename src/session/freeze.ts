/**
 * Deep-freezes a value built from already-frozen parts: it stops at frozen objects, so freezing
 * an event costs only its new wrapper objects, never the shared (frozen) history (R1, R38).
 */
export const freezeShallowNew = <T>(value: T): T => {
  if (value === null || typeof value !== 'object' || Object.isFrozen(value)) return value
  for (const key of Object.keys(value)) freezeShallowNew((value as Record<string, unknown>)[key])
  return Object.freeze(value)
}
