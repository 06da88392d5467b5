/** Longer failure texts are cut: a multi-megabyte error body must not bloat every saved turn. */
export const MAX_ERROR_TEXT = 8192

/**
 * The text of anything that was thrown, for a `turn/end` reason, a tool result or a report.
 * Never throws, whatever the value: `null`, a symbol, `Object.create(null)`, an `Error` whose
 * `message` getter throws, a revoked `Proxy`. Outside code may throw any of these, and taking
 * their text is the first thing every failure path does, so a throw here would stop the agent.
 *
 * 1. A string is itself.
 * 2. A value with a string `message` (an `Error`, one from another realm, a plain
 *    `{message}`) gives that message.
 * 3. Anything else gives `String(value)`, else `Object.prototype.toString`, else a placeholder.
 * 4. The result is always a string (so it is JSON), cut at {@link MAX_ERROR_TEXT} characters.
 */
export const errorText = (value: unknown): string => {
  const text = rawText(value)
  if (text.length <= MAX_ERROR_TEXT) return text
  return `${text.slice(0, MAX_ERROR_TEXT)}… (${text.length - MAX_ERROR_TEXT} more characters)`
}

const rawText = (value: unknown): string => {
  if (typeof value === 'string') return value
  try {
    if (typeof value === 'object' && value !== null) {
      const message: unknown = (value as { message?: unknown }).message
      if (typeof message === 'string') return message
      // A number or a boolean thrown as a message (`{message: 42}`) is its own text.
      if (typeof message === 'number' || typeof message === 'boolean') return String(message)
    }
  } catch {
    // A getter or a Proxy trap threw: try the other ways.
  }
  try {
    return String(value)
  } catch {
    // Object.create(null), a revoked Proxy, a throwing toString.
  }
  try {
    return Object.prototype.toString.call(value)
  } catch {
    return `a thrown ${typeof value} that cannot be read`
  }
}
