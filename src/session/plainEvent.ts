/**
 * A fast structural check of one durable event, for the common shapes: what the agent itself
 * writes. It never decides a value is invalid. It answers `true` only for a value the schema
 * (`sessionEventSchema`) accepts; for anything else (an unusual source, an `undefined` under an
 * optional key, an object that is not a plain one) it answers `false`, and the caller asks the
 * schema, which then decides and says what is wrong. So a log opens with the same verdicts and
 * the same messages as with the schema alone, several times faster (docs/performance.md).
 */

type Rec = Record<string, unknown>

const isRecord = (v: unknown): v is Rec => {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false
  const proto = Object.getPrototypeOf(v)
  return proto === Object.prototype || proto === null
}

/** Own enumerable keys: exactly `n`, every one of them known by the caller's checks. */
const keyCount = (o: Rec): number => {
  let n = 0
  for (const key in o)
    if (Object.hasOwn(o, key)) n++
    else return -1
  return n
}

const isPositiveInt = (v: unknown): boolean => typeof v === 'number' && Number.isSafeInteger(v) && v >= 1
const isCount = (v: unknown): boolean => typeof v === 'number' && Number.isFinite(v) && v >= 0
const isId = (v: unknown): boolean => typeof v === 'string' && v.length > 0

const TOOL_RESULT_CODES = new Set([
  'UNKNOWN_TOOL',
  'INVALID_ARGUMENTS',
  'TOOL_ERROR',
  'INVALID_RESULT',
  'ABORTED',
  'ABORTED_BEFORE_DISPATCH',
  'NOT_RUN_MAX_TOKENS',
  'NOT_RUN_BUDGET',
  'NOT_RUN_MAX_STEPS',
  'CANCELLED',
  'DENIED',
])

const isToolCall = (b: Rec, n: number): boolean =>
  n === 4 && typeof b.id === 'string' && typeof b.name === 'string' && typeof b.arguments === 'string'

const isToolResult = (b: Rec, n: number, depth: number): boolean => {
  let known = 3
  if (typeof b.toolCallId !== 'string' || !isContent(b.content, depth + 1)) return false
  if ('isError' in b) {
    if (typeof b.isError !== 'boolean') return false
    known++
  }
  if ('code' in b) {
    if (typeof b.code !== 'string' || !TOOL_RESULT_CODES.has(b.code)) return false
    known++
  }
  return n === known
}

const isBlock = (v: unknown, depth: number): boolean => {
  if (!isRecord(v)) return false
  const n = keyCount(v)
  switch (v.type) {
    case 'text':
    case 'reasoning':
      return n === 2 && typeof v.text === 'string'
    case 'tool-call':
      return isToolCall(v, n)
    case 'tool-result':
      return isToolResult(v, n, depth)
    default:
      return false
  }
}

/** Nested tool results deeper than this are left to the schema. */
const MAX_DEPTH = 8

const isContent = (v: unknown, depth = 0): boolean => {
  if (!Array.isArray(v) || depth > MAX_DEPTH) return false
  for (let i = 0; i < v.length; i++) if (!isBlock(v[i], depth)) return false
  return true
}

/** The sources the agent writes most; any other shape is left to the schema. */
const isSource = (v: unknown): boolean => {
  if (!isRecord(v)) return false
  const n = keyCount(v)
  switch (v.kind) {
    case 'user':
      return n === 1
    case 'plugin':
      return n === 2 && typeof v.plugin === 'string'
    case 'tool':
      return n === 2 && typeof v.tool === 'string'
    default:
      return false
  }
}

const isUsage = (v: unknown): boolean => {
  if (!isRecord(v) || !isCount(v.inputTokens) || !isCount(v.outputTokens)) return false
  const cached = 'cachedInputTokens' in v ? (isCount(v.cachedInputTokens) ? 1 : -99) : 0
  const estimated = 'estimated' in v ? (v.estimated === true ? 1 : -99) : 0
  return keyCount(v) === 2 + cached + estimated
}

const isTrigger = (v: unknown): boolean => {
  if (!isRecord(v)) return false
  const n = keyCount(v)
  if (v.kind === 'retry') return n === 1
  if (v.kind !== 'message' || !isSource(v.source)) return false
  return 'id' in v ? n === 3 && isId(v.id) : n === 2
}

const isReason = (v: unknown): boolean => {
  if (!isRecord(v)) return false
  const n = keyCount(v)
  switch (v.kind) {
    case 'completed':
    case 'max-tokens':
    case 'aborted':
    case 'disposed':
      return n === 1
    case 'error':
      return (
        n === 3 &&
        typeof v.step === 'number' &&
        Number.isSafeInteger(v.step) &&
        v.step >= 0 &&
        typeof v.message === 'string'
      )
    default:
      return false
  }
}

const isData = (type: unknown, d: Rec, n: number): boolean => {
  switch (type) {
    case 'turn/start':
      return n === 2 && isPositiveInt(d.turn) && isTrigger(d.trigger)
    case 'turn/end':
      return n === 2 && isPositiveInt(d.turn) && isReason(d.reason)
    case 'step/start':
      return n === 2 && isPositiveInt(d.turn) && isPositiveInt(d.step)
    case 'step/end':
      return (
        ('usage' in d ? n === 3 && isUsage(d.usage) : n === 2) &&
        isPositiveInt(d.turn) &&
        isPositiveInt(d.step)
      )
    case 'user/message':
      return (
        ('id' in d ? n === 3 && isId(d.id) : n === 2) &&
        isContent(d.content) &&
        (d.content as unknown[]).length > 0 &&
        isSource(d.source)
      )
    case 'steering/message':
      return (
        n === 4 &&
        isPositiveInt(d.turn) &&
        isId(d.id) &&
        isContent(d.content) &&
        (d.content as unknown[]).length > 0 &&
        isSource(d.source)
      )
    case 'assistant/message':
      return (
        ('usage' in d ? n === 4 && isUsage(d.usage) : n === 3) &&
        isPositiveInt(d.turn) &&
        isPositiveInt(d.step) &&
        isContent(d.content)
      )
    case 'tool/call':
      return (
        n === 3 &&
        isPositiveInt(d.turn) &&
        isPositiveInt(d.step) &&
        isRecord(d.call) &&
        d.call.type === 'tool-call' &&
        isToolCall(d.call, keyCount(d.call))
      )
    case 'tool/result':
      return (
        n === 3 &&
        isPositiveInt(d.turn) &&
        isPositiveInt(d.step) &&
        isRecord(d.result) &&
        d.result.type === 'tool-result' &&
        isToolResult(d.result, keyCount(d.result), 0)
      )
    default:
      return false
  }
}

/**
 * Whether `value` is, for sure, an event the schema accepts (its `seq` order aside). `false`
 * means "ask the schema", never "invalid". Whatever reading the value throws is a `false` too.
 */
export const isPlainEvent = (value: unknown): boolean => {
  try {
    if (!isRecord(value) || keyCount(value) !== 3 || !isPositiveInt(value.seq)) return false
    const data = value.data
    return isRecord(data) && isData(value.type, data, keyCount(data))
  } catch {
    return false
  }
}
