/**
 * A plain-JSON copy of `value` for a record: an `Error` becomes `{name, message}`, functions,
 * symbols and `undefined` are dropped, a cycle or a value that throws when read becomes a string
 * that says so. Never throws, whatever the value (outside code may hand the agent anything).
 *
 * At most {@link MAX_VALUES} values are copied; past that each value becomes `'[too large]'`.
 * A value with shared references is copied once per path, as JSON writes it, so a few KB of
 * shared references could otherwise stand for millions of values and hold the process for
 * minutes.
 */
export const jsonSafe = (value: unknown): unknown =>
  copy(value, new WeakSet<object>(), 0, { left: MAX_VALUES })

const MAX_DEPTH = 32
export const MAX_VALUES = 10_000
const TOO_LARGE = '[too large]'

const copy = (value: unknown, seen: WeakSet<object>, depth: number, budget: { left: number }): unknown => {
  try {
    if (--budget.left < 0) return TOO_LARGE
    if (value === null || typeof value === 'string' || typeof value === 'boolean') return value
    if (typeof value === 'number') return Number.isFinite(value) ? value : String(value)
    if (typeof value === 'bigint') return value.toString()
    if (typeof value !== 'object') return undefined
    if (seen.has(value)) return '[cycle]'
    if (depth > MAX_DEPTH) return '[too deep]'
    seen.add(value)
    try {
      if (value instanceof Error) return { name: String(value.name), message: String(value.message) }
      if (Array.isArray(value)) {
        const items: unknown[] = []
        for (let i = 0; i < value.length; i++) {
          if (budget.left <= 0) {
            items.push(TOO_LARGE)
            break
          }
          items.push(copy(value[i], seen, depth + 1, budget) ?? null)
        }
        return items
      }
      const out: Record<string, unknown> = {}
      for (const key of Object.keys(value)) {
        if (budget.left <= 0) {
          out[key] = TOO_LARGE
          break
        }
        const item = copy((value as Record<string, unknown>)[key], seen, depth + 1, budget)
        if (item !== undefined) out[key] = item
      }
      return out
    } finally {
      seen.delete(value)
    }
  } catch {
    return '[unreadable]'
  }
}
