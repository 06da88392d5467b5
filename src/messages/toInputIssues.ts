/** The one place where zod issues become the `InputIssue`s of `InvalidInputError` (R2). */
import type * as z from 'zod/mini'
import type { InputIssue } from '../contracts/errors.js'
import { describeValue as describe } from './describeValue.js'
import { didYouMean } from './didYouMean.js'
import { keysAt } from './schemaKeys.js'
import type { Path } from './snapshot.js'

const expectedNames: Readonly<Record<string, string>> = { int: 'integer', record: 'object' }

/**
 * Maps a zod error on `value` to issues whose paths start with `root`, with crisp messages:
 * `required`, `expected string`, `must not be empty`, `unknown block type "image"; expected one
 * of …`, `unknown key; did you mean …?` (one issue per key, the key in the path; given the
 * `schema` that was parsed, the message names the keys it allows). Other issues keep zod's message.
 *
 * Reading `value` again may run the caller's code (a getter, a Proxy trap): run it `guarded`.
 */
export const toInputIssues = (
  error: z.core.$ZodError,
  root: Path,
  value: unknown,
  schema?: z.core.$ZodType,
): InputIssue[] =>
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
      case 'unrecognized_keys': {
        const known = schema && keysAt(schema, issue.path, value)
        const noun = root[0] === 'options' ? 'option' : 'key'
        return issue.keys.map((key) => ({
          path: [...path, key],
          message: known ? didYouMean(key, known, 'key', noun) : 'unknown key',
        }))
      }
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

const lookup = (value: unknown, path: readonly PropertyKey[]): unknown => {
  let v = value
  for (const key of path) {
    if (typeof v !== 'object' || v === null) return undefined
    v = (v as Record<PropertyKey, unknown>)[key]
  }
  return v
}
