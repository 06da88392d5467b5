/** The one place where zod issues become the `InputIssue`s of `InvalidInputError` (R2). */
import type { z } from 'zod'
import type { InputIssue } from '../contracts/errors.js'
import type { Path } from './snapshot.js'

const expectedNames: Readonly<Record<string, string>> = { int: 'integer', record: 'object' }

/**
 * Maps a zod error on `value` to issues whose paths start with `root`, with crisp messages:
 * `required`, `expected string`, `must not be empty`, `unknown block type "image"; expected one
 * of …`, `unknown key` (one issue per key, the key in the path). Other issues keep zod's message.
 */
export const toInputIssues = (error: z.ZodError, root: Path, value: unknown): InputIssue[] =>
  error.issues.flatMap((issue): InputIssue[] => {
    const path = [...root, ...issue.path.map((key) => (typeof key === 'symbol' ? String(key) : key))]
    const actual = lookup(value, issue.path)
    switch (issue.code) {
      case 'invalid_type':
        return [
          {
            path,
            message:
              actual === undefined
                ? 'required'
                : `expected ${expectedNames[issue.expected] ?? issue.expected}`,
          },
        ]
      case 'too_small':
        return [{ path, message: tooSmall(issue) }]
      case 'invalid_value':
        return [
          {
            path,
            message:
              actual === undefined
                ? `required (expected ${oneOf(issue.values)})`
                : `expected ${oneOf(issue.values)}`,
          },
        ]
      case 'unrecognized_keys':
        return issue.keys.map((key) => ({ path: [...path, key], message: 'unknown key' }))
      case 'invalid_union': {
        const { discriminator, options } = issue as { discriminator?: string; options?: readonly unknown[] }
        if (discriminator === undefined || options === undefined)
          return [{ path, message: 'matches none of the allowed shapes' }]
        const expected = `expected ${oneOf(options)}`
        if (actual === undefined) return [{ path, message: `required (${expected})` }]
        const what = discriminator === 'type' ? 'block type' : discriminator
        return [{ path, message: `unknown ${what} ${describe(actual)}; ${expected}` }]
      }
      default:
        return [{ path, message: issue.message }]
    }
  })

const tooSmall = (issue: z.core.$ZodIssueTooSmall): string => {
  if ((issue.origin === 'array' || issue.origin === 'string') && issue.minimum === 1)
    return 'must not be empty'
  return `must be ${issue.inclusive === false ? '>' : '>='} ${issue.minimum}`
}

const oneOf = (values: readonly unknown[]): string =>
  values.length === 1 ? describe(values[0]) : `one of ${values.map(describe).join(', ')}`

/** A short, never-throwing rendering of any value for a message. */
const describe = (v: unknown): string => {
  switch (typeof v) {
    case 'string':
      return JSON.stringify(v)
    case 'bigint':
      return `${v}n`
    case 'function':
      return 'a function'
    case 'object':
      return v === null ? 'null' : Array.isArray(v) ? 'an array' : 'an object'
    default:
      return String(v)
  }
}

const lookup = (value: unknown, path: readonly PropertyKey[]): unknown => {
  let v = value
  for (const key of path) {
    if (typeof v !== 'object' || v === null) return undefined
    v = (v as Record<PropertyKey, unknown>)[key]
  }
  return v
}
