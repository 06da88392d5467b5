/**
 * A plain-JSON copy of `value` for a record: an `Error` becomes `{name, message}`, functions,
 * symbols and `undefined` are dropped, a cycle or a value that throws when read becomes a string
 * that says so. Never throws, whatever the value (outside code may hand the agent anything).
 */
export const jsonSafe = (value: unknown): unknown => copy(value, new WeakSet<object>(), 0)

const MAX_DEPTH = 32

const copy = (value: unknown, seen: WeakSet<object>, depth: number): unknown => {
  try {
    if (value === null || typeof value === 'string' || typeof value === 'boolean') return value
    if (typeof value === 'number') return Number.isFinite(value) ? value : String(value)
    if (typeof value === 'bigint') return value.toString()
    if (typeof value !== 'object') return undefined
    if (seen.has(value)) return '[cycle]'
    if (depth > MAX_DEPTH) return '[too deep]'
    seen.add(value)
    try {
      if (value instanceof Error) return { name: String(value.name), message: String(value.message) }
      if (Array.isArray(value)) return value.map((item) => copy(item, seen, depth + 1) ?? null)
      const out: Record<string, unknown> = {}
      for (const key of Object.keys(value)) {
        const item = copy((value as Record<string, unknown>)[key], seen, depth + 1)
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
