/**
 * Steps against the model script: the kth `step/start` is the kth model request, so its reply is
 * known. Checks the folded `assistant/message` (deltas merged, events after `finish` ignored),
 * that failed or hanging requests end the turn (R23, R24, R25), tool result codes per tool
 * (R18, R21b, R25), concluding tools (R17), continuation after tools (R16), and the max-tokens
 * end reason (R18).
 */
import { isDeepStrictEqual } from 'node:util'
import type { ContentBlock, SessionEvent, ToolResultBlock } from '../../src/index.js'
import { lastIndexBefore } from './checkCuts.js'
import type { Reply, Schedule, ToolName } from './schedule.js'

type TurnEnd = Extract<SessionEvent, { type: 'turn/end' }>['data']['reason']

const ABORTED = ['ABORTED', 'ABORTED_BEFORE_DISPATCH']
/** The result codes each tool may get (`ok`: a successful result; aborts only in aborted turns). */
const CODES: Record<ToolName, readonly string[]> = {
  ok: ['ok', ...ABORTED],
  pok: ['ok', ...ABORTED],
  ctx: ['ok', ...ABORTED],
  conclude: ['ok', ...ABORTED],
  fail: ['TOOL_ERROR', ...ABORTED],
  hang: ABORTED,
  hangSend: ABORTED,
  hangErr: ABORTED,
  hangValue: ['late', 'ABORTED_BEFORE_DISPATCH'],
  nope: ['UNKNOWN_TOOL', 'ABORTED_BEFORE_DISPATCH'],
  badArgs: ['INVALID_ARGUMENTS', 'ABORTED_BEFORE_DISPATCH'],
  weird: ['TOOL_ERROR', 'INVALID_RESULT', ...ABORTED],
}

const expectedContent = (reply: Extract<Reply, { kind: 'stream' }>, k: number): ContentBlock[] => {
  const content: ContentBlock[] = []
  if (reply.words > 0) {
    const words = Array.from({ length: reply.words }, (_, i) => `r${k}w${i + 1} `)
    content.push({ type: 'text', text: words.join('') })
  }
  reply.calls.forEach((call, j) => {
    const name = call.tool === 'badArgs' ? 'ok' : call.tool
    const args = call.tool === 'badArgs' ? '{"d":"x"}' : `{"d":${call.d}}`
    content.push({ type: 'tool-call', id: `c${k}.${j + 1}`, name, arguments: args })
  })
  return content
}

const codeOf = (result: ToolResultBlock): string => {
  if (result.code) return result.code
  const first = result.content[0]
  if (result.isError) return 'error'
  return first?.type === 'text' && first.text === 'late' ? 'late' : 'ok'
}

export const checkSteps = (durable: readonly SessionEvent[], schedule: Schedule): string[] => {
  const problems: string[] = []
  const ends = new Map<number, { reason: TurnEnd; at: number }>()
  durable.forEach((e, at) => {
    if (e.type === 'turn/end') ends.set(e.data.turn, { reason: e.data.reason, at })
  })
  const maxTokens = new Map<number, boolean>()
  let k = 0
  durable.forEach((e, at) => {
    if (e.type !== 'step/start') return
    k++
    const { turn, step } = e.data
    const p = (s: string) => problems.push(`turn ${turn} step ${step} (reply #${k}): ${s}`)
    const end = ends.get(turn)
    const aborted = end?.reason.kind === 'aborted' || end?.reason.kind === 'disposed'
    const stepEnd = durable.findIndex((x, i) => i > at && x.type === 'step/end')
    const events = durable.slice(at + 1, stepEnd)
    const reply = schedule.plan.replies[k - 1]
    const assistant = events.find((x) => x.type === 'assistant/message')
    const closing = durable[stepEnd]
    if (closing?.type === 'step/end' && closing.data.interrupted) {
      checkCut(durable, stepEnd, reply, k, p)
      return
    }
    if (assistant?.type === 'assistant/message' && assistant.data.interrupted)
      p('R68: an interrupted answer in a step not cut')
    if (reply?.kind === 'stream') {
      if (assistant?.type === 'assistant/message') {
        const expected = expectedContent(reply, k)
        if (!isDeepStrictEqual(assistant.data.content, expected))
          p(`assistant content ${JSON.stringify(assistant.data.content)} ≠ ${JSON.stringify(expected)}`)
        if (reply.finish === 'max-tokens') maxTokens.set(turn, true)
      } else if (!aborted) p(`no assistant/message, yet the turn ended ${end?.reason.kind}`)
    } else {
      if (assistant) p(`assistant/message for a ${reply?.kind ?? 'missing'} reply`)
      const failed = reply === undefined || reply.kind !== 'hang'
      const errorHere = end?.reason.kind === 'error' && end.reason.step === step
      if (!aborted && !(failed && errorHere))
        p(`a ${reply?.kind ?? 'missing'} reply, the turn ended ${end?.reason.kind}`)
    }
    let concluded = false
    let ranTools = false
    for (const x of events) {
      if (x.type !== 'tool/result') continue
      const id = x.data.result.toolCallId
      const j = Number(id.split('.')[1]) - 1
      const tool = reply?.kind === 'stream' ? reply.calls[j]?.tool : undefined
      const code = codeOf(x.data.result)
      if (reply?.kind === 'stream' && reply.finish === 'max-tokens') {
        const budget = code === 'NOT_RUN_BUDGET' && end?.reason.kind === 'budget' // R80 ends it first
        if (code !== 'NOT_RUN_MAX_TOKENS' && !budget) p(`R18: ${id} of a max-tokens answer got ${code}`)
        continue
      }
      ranTools = true
      if (code === 'CANCELLED') continue // R71: whichever tool; checkToolCalls.ts judges the cancel
      // R80: a 'stop' budget passed by this step's request; checkBudget.ts judges the budget.
      if (code === 'NOT_RUN_BUDGET' && end?.reason.kind === 'budget') continue
      if (!tool || !CODES[tool].includes(code)) p(`R21b/R25: ${id} (${tool}) got ${code}`)
      else if (ABORTED.includes(code) && !aborted)
        p(`R25: ${id} (${tool}) got ${code} in a turn that ended ${end?.reason.kind}`)
      if (tool === 'conclude' && code === 'ok') concluded = true
    }
    if (aborted || stepEnd < 0) return
    const next = durable
      .slice(stepEnd + 1)
      .find((x) => x.type !== 'user/message' && x.type !== 'steering/message')
    if (concluded && next?.type !== 'turn/end') p(`R17: a concluding tool ran, then ${next?.type}`)
    if (ranTools && !concluded && assistant) {
      const ok =
        (next?.type === 'step/start' && next.data.step === step + 1) ||
        (next?.type === 'turn/end' &&
          next.data.reason.kind === 'error' &&
          next.data.reason.step === step + 1) ||
        stoppedByBudget(next)
      if (!ok) p(`R16: tools ran, then ${next?.type} instead of step ${step + 1}`)
    }
  })
  for (const [turn, { reason }] of ends) {
    if (reason.kind !== 'completed' && reason.kind !== 'max-tokens') continue
    const expected = maxTokens.get(turn) ? 'max-tokens' : 'completed'
    if (reason.kind !== expected)
      problems.push(`R18: turn ${turn} ended ${reason.kind}, expected ${expected}`)
  }
  return problems
}

/** R80: the budget, spent, paused the turn or ended it before its next step (checkBudget.ts judges it). */
const stoppedByBudget = (next: SessionEvent | undefined): boolean =>
  next?.type === 'budget/pause' || (next?.type === 'turn/end' && next.data.reason.kind === 'budget')

/** The text a reply streams, in full: a cut keeps a prefix of it (R68). */
const streamedText = (reply: Reply | undefined, k: number): string => {
  if (reply?.kind === 'stream')
    return Array.from({ length: reply.words }, (_, i) => `r${k}w${i + 1} `).join('')
  if (reply?.kind === 'fail') return Array.from({ length: reply.after }, (_, i) => `w${i + 1} `).join('')
  return ''
}

/**
 * R68, R16: a cut step keeps a prefix of the streamed text (a whole number of deltas, none: no
 * answer), and the turn goes on with the next step, unless it was cancelled or failed there.
 */
const checkCut = (
  durable: readonly SessionEvent[],
  stepEnd: number,
  reply: Reply | undefined,
  k: number,
  p: (s: string) => void,
): void => {
  const end = durable[stepEnd] as Extract<SessionEvent, { type: 'step/end' }>
  const { turn, step } = end.data
  const start = lastIndexBefore(durable, stepEnd, (x) => x.type === 'step/start')
  const assistant = durable.slice(start + 1, stepEnd).find((x) => x.type === 'assistant/message')
  if (assistant?.type === 'assistant/message') {
    const text = assistant.data.content.map((b) => (b.type === 'text' ? b.text : '')).join('')
    const full = streamedText(reply, k)
    const whole = full.split(' ').slice(0, -1)
    const prefixes = whole.map((_, i) => `${whole.slice(0, i + 1).join(' ')} `)
    if (!prefixes.includes(text)) p(`R68: the cut kept "${text}", not a prefix of the deltas of "${full}"`)
  }
  const next = durable
    .slice(stepEnd + 1)
    .find((x) => x.type !== 'user/message' && x.type !== 'steering/message')
  const goesOn = next?.type === 'step/start' && next.data.turn === turn && next.data.step === step + 1
  const stopped =
    (next?.type === 'turn/end' && ['aborted', 'disposed', 'error'].includes(next.data.reason.kind)) ||
    stoppedByBudget(next)
  if (next && !goesOn && !stopped) p(`R68: after the cut came ${next.type}, not step ${step + 1}`)
}
