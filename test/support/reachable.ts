/**
 * What an object keeps alive, counted without a garbage collector: the slots (array elements and
 * own property values) of every object reachable from `root`, each object once. Private fields
 * written with TypeScript's `private` are plain properties and are followed; `#fields` are not.
 * A deterministic stand-in for "heap after GC" where a test compares two structures.
 */
export const reachableSlots = (root: object): number => {
  const seen = new Set<object>()
  const stack: object[] = [root]
  let slots = 0
  while (stack.length > 0) {
    const node = stack.pop() as object
    if (seen.has(node)) continue
    seen.add(node)
    const values = Array.isArray(node) ? node : Object.values(node)
    slots += values.length
    for (const value of values) if (typeof value === 'object' && value !== null) stack.push(value)
  }
  return slots
}
