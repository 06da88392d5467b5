/**
 * `jsonSnapshot`: the deep copy + deep freeze of R1, and the non-JSON check of R2/V4, in one pass
 * (no `JSON.stringify` round trip: sends are on the hot path).
 */
import type { InputIssue } from '../contracts/errors.js'
import { formatPath } from '../contracts/errors.js'
import type { JsonValue } from '../contracts/messages.js'
import { errorText } from './errorText.js'

export type Path = readonly (string | number)[]
export type SnapshotResult =
  | { readonly ok: true; readonly value: JsonValue }
  | { readonly ok: false; readonly issues: readonly InputIssue[] }

/** Deeper inputs are refused instead of overflowing the stack (here or later in validation). */
export const MAX_DEPTH = 256
/** Stop walking after this many issues: a huge bad array should not build a huge message. */
const MAX_ISSUES = 20
/** Values that shared references may repeat, as JSON, in one value (see rule 5). */
export const MAX_REPEATED = 100_000

/**
 * A deep-frozen deep copy of a plain JSON value, or the list of places where it is not JSON.
 *
 * 1. Accepted: `null`, booleans, strings, finite numbers (`-0` becomes `0`), arrays and plain
 *    objects (prototype `Object.prototype` or `null`, or the same from another realm).
 * 2. Refused, each with its path: BigInt, functions, symbols, `undefined` in arrays (holes
 *    included), NaN and ±Infinity, cycles (the message names the path they point back to), class
 *    instances (Date, Map, boxed primitives, Array subclasses …), enumerable symbol keys, and
 *    nesting deeper than {@link MAX_DEPTH}.
 * 3. Object keys whose value is `undefined` are dropped, as `JSON.stringify` does. Non-enumerable
 *    properties and extra (non-index) properties of arrays are ignored, as JSON does.
 * 4. A key `__proto__` is copied as an own data property (as `JSON.parse` does), never as a
 *    prototype. Getters are read once; a getter or a Proxy trap that throws is an issue at its
 *    path (the value cannot be copied), whatever it threw.
 * 5. A shared (non-cyclic) reference is copied once, and the copy is shared the same way: a value
 *    costs its size, not the number of paths to its parts. As JSON a shared value repeats at each
 *    place (a store writes it so), so a value whose shared references repeat more than
 *    {@link MAX_REPEATED} values in all is refused (a few KB of input can otherwise stand for
 *    millions of values).
 *
 * @param value The caller's value; it is never modified.
 * @param root The name of the argument (`'input'`), or a path, that issue paths start with.
 */
export const jsonSnapshot = (value: unknown, root: string | Path): SnapshotResult => {
  const path = typeof root === 'string' ? [root] : [...root]
  const walk: Walk = {
    path,
    base: path.length,
    issues: [],
    ancestors: [],
    copies: new Map(),
    size: 0,
    repeated: 0,
    deepest: 0,
  }
  let result: JsonValue | undefined
  try {
    result = copy(walk, value)
  } catch (error) {
    // A getter or a Proxy trap threw: the walk stops where it was (`walk.path`, never unwound).
    fail(walk, unreadable(error))
  }
  return walk.issues.length === 0 && result !== undefined
    ? { ok: true, value: result }
    : { ok: false, issues: walk.issues }
}

type Walk = {
  /** The path of the value being copied; pushed and popped as the walk goes. */
  readonly path: (string | number)[]
  /** `path.length` at the root; the ancestor at index `i` sits at `path.length === base + i`. */
  readonly base: number
  readonly issues: InputIssue[]
  /** The objects being copied, outermost first (cycle detection; at most MAX_DEPTH long). */
  readonly ancestors: object[]
  /** Each object copied so far: its copy, how many values and how many levels it stands for. */
  readonly copies: Map<object, Copied>
  /** Values walked so far, counting each shared value as the values it repeats. */
  size: number
  /** Values repeated so far through shared references (see rule 5). */
  repeated: number
  /** The deepest nesting reached so far (`ancestors.length`), shared values counted in place. */
  deepest: number
}

type Copied = { readonly value: JsonValue; readonly size: number; readonly height: number }

const fail = (walk: Walk, message: string): undefined => {
  if (walk.issues.length < MAX_ISSUES) walk.issues.push({ path: [...walk.path], message })
  return undefined
}

const copy = (walk: Walk, v: unknown): JsonValue | undefined => {
  walk.size++
  if (typeof v === 'string' || typeof v === 'boolean' || v === null) return v
  if (typeof v === 'number') return Number.isFinite(v) ? (v === 0 ? 0 : v) : fail(walk, `${v} is not JSON`)
  if (typeof v !== 'object') return fail(walk, primitiveMessages[typeof v] ?? 'not JSON')
  const seenAt = walk.ancestors.indexOf(v)
  if (seenAt !== -1) {
    return fail(walk, `circular reference to ${formatPath(walk.path.slice(0, walk.base + seenAt))}`)
  }
  const copied = walk.copies.get(v)
  if (copied !== undefined) return shared(walk, copied)
  if (walk.ancestors.length >= MAX_DEPTH) return fail(walk, `nested more than ${MAX_DEPTH} levels deep`)
  const before = walk.size - 1
  const depth = walk.ancestors.length
  const deepestOutside = walk.deepest
  walk.deepest = depth
  const out = copyFresh(walk, v)
  if (out !== undefined)
    walk.copies.set(v, { value: out, size: walk.size - before, height: walk.deepest - depth })
  walk.deepest = Math.max(deepestOutside, walk.deepest)
  return out
}

/**
 * A reference to an object copied before: the same copy, counted as the values and the levels it
 * stands for where it appears again (JSON repeats it there).
 */
const shared = (walk: Walk, copied: Copied): JsonValue | undefined => {
  const depth = walk.ancestors.length
  if (depth + copied.height > MAX_DEPTH) return fail(walk, `nested more than ${MAX_DEPTH} levels deep`)
  walk.deepest = Math.max(walk.deepest, depth + copied.height)
  walk.size += copied.size - 1
  walk.repeated += copied.size
  if (walk.repeated <= MAX_REPEATED) return copied.value
  return fail(
    walk,
    `shared references repeat more than ${MAX_REPEATED.toLocaleString('en-US')} values as JSON ` +
      '(JSON writes a shared value at every place it appears): send a value that repeats less',
  )
}

const copyFresh = (walk: Walk, v: object): JsonValue | undefined => {
  const proto: unknown = Object.getPrototypeOf(v)
  if (Array.isArray(v)) {
    if (proto !== Array.prototype && !isForeignPrototype(proto, 'Array'))
      return fail(walk, classMessage(proto))
    walk.ancestors.push(v)
    walk.deepest = Math.max(walk.deepest, walk.ancestors.length)
    const out = copyArray(walk, v)
    walk.ancestors.pop()
    return out
  }
  if (proto !== Object.prototype && proto !== null && !isForeignPrototype(proto, 'Object')) {
    return fail(walk, classMessage(proto))
  }
  walk.ancestors.push(v)
  walk.deepest = Math.max(walk.deepest, walk.ancestors.length)
  const out = copyObject(walk, v as Record<string, unknown>)
  walk.ancestors.pop()
  return out
}

/** The issue of a value whose getter or Proxy trap threw while it was read. */
export const unreadable = (error: unknown): string =>
  `could not be read (a getter or Proxy trap threw: ${errorText(error)})`

const primitiveMessages: Readonly<Record<string, string>> = {
  bigint: 'BigInt is not JSON',
  function: 'function is not JSON',
  symbol: 'symbol is not JSON',
  undefined: 'undefined is not JSON (use null)',
}

const copyArray = (walk: Walk, arr: readonly unknown[]): JsonValue => {
  const out: JsonValue[] = []
  for (let i = 0; i < arr.length && walk.issues.length < MAX_ISSUES; i++) {
    walk.path.push(i)
    out.push(copy(walk, arr[i]) ?? null)
    walk.path.pop()
  }
  return Object.freeze(out)
}

const copyObject = (walk: Walk, obj: Record<string, unknown>): JsonValue => {
  const out: Record<string, JsonValue> = {}
  for (const key in obj) {
    if (!Object.hasOwn(obj, key)) continue
    const child = obj[key]
    if (child === undefined) continue
    walk.path.push(key)
    const c = copy(walk, child)
    walk.path.pop()
    if (c === undefined) continue
    if (key === '__proto__')
      Object.defineProperty(out, key, { value: c, enumerable: true, writable: true, configurable: true })
    else out[key] = c
    if (walk.issues.length >= MAX_ISSUES) break
  }
  for (const symbol of Object.getOwnPropertySymbols(obj)) {
    if (Object.prototype.propertyIsEnumerable.call(obj, symbol))
      fail(walk, `symbol key ${String(symbol)} is not JSON`)
  }
  return Object.freeze(out)
}

/** A plain prototype from another realm (a `vm` context, an iframe): its own prototype chain ends at once. */
const isForeignPrototype = (proto: unknown, name: 'Object' | 'Array'): boolean => {
  if (typeof proto !== 'object' || proto === null) return false
  const ctor: unknown = Object.getOwnPropertyDescriptor(proto, 'constructor')?.value
  if (typeof ctor !== 'function' || ctor.name !== name) return false
  const parent: unknown = Object.getPrototypeOf(proto)
  return name === 'Object' ? parent === null : parent !== null && Object.getPrototypeOf(parent) === null
}

const classMessage = (proto: unknown): string => {
  const ctor: unknown =
    typeof proto === 'object' && proto !== null
      ? Object.getOwnPropertyDescriptor(proto, 'constructor')?.value
      : undefined
  const name = typeof ctor === 'function' && ctor.name !== '' ? ctor.name : 'class'
  return `${name} instance is not plain JSON`
}

/**
 * Freezes `value` and everything reachable from it, in place, and returns it. An object that is
 * already frozen is taken to be deep-frozen already and is not walked again (everything this
 * library freezes is frozen deeply), which also makes cycles safe.
 */
export const deepFreeze = <T>(value: T): T => {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value) || ArrayBuffer.isView(value))
    return value
  Object.freeze(value)
  for (const key of Reflect.ownKeys(value)) {
    const child: unknown = (value as Record<PropertyKey, unknown>)[key]
    deepFreeze(child)
  }
  return value
}

/** A plain object: not null, not an array, prototype `Object.prototype` or `null` (or a foreign realm's). */
export const isPlainObject = (value: unknown): value is Record<string, unknown> => {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false
  const proto: unknown = Object.getPrototypeOf(value)
  return proto === Object.prototype || proto === null || isForeignPrototype(proto, 'Object')
}
