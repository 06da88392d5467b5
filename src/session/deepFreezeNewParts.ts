/**
 * Deep-freezes a value built from already-frozen parts: it stops at frozen objects, so freezing
 * an event costs only its new wrapper objects, never the shared (frozen) history (R1, R38).
 */
export const deepFreezeNewParts = <T>(value: T): T => {
  if (value === null || typeof value !== 'object' || Object.isFrozen(value)) return value
  // Drafts are plain objects and arrays made by the reducer: for-in sees exactly their own keys,
  // without the array Object.keys would allocate per object (six events per turn).
  if (Array.isArray(value)) for (const item of value) deepFreezeNewParts(item)
  else for (const key in value) deepFreezeNewParts((value as Record<string, unknown>)[key])
  return Object.freeze(value)
}
