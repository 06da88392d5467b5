/** Longer strings are not quoted: a message names the mistake, it does not echo a document. */
const MAX_QUOTED = 60

/**
 * A short rendering of any value for an error message (`got "4"`, `got NaN`, `got an array`).
 * Never throws and never reads inside an object (a getter or a Proxy trap would run). Never use it
 * on a value that may be a secret, such as an API key.
 */
export const describeValue = (v: unknown): string => {
  switch (typeof v) {
    case 'string':
      return v.length <= MAX_QUOTED ? JSON.stringify(v) : `a string of ${v.length} characters`
    case 'bigint':
      return `${v}n`
    case 'function':
      return 'a function'
    case 'symbol':
      return 'a symbol'
    case 'object':
      return v === null ? 'null' : isArray(v) ? 'an array' : 'an object'
    default:
      return String(v)
  }
}

/** `Array.isArray`, which throws on a revoked Proxy. */
const isArray = (v: object): boolean => {
  try {
    return Array.isArray(v)
  } catch {
    return false
  }
}
