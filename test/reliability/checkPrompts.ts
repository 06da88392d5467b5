/**
 * Admissions: one ordinary prompt per turn, the item the driver last claimed (R7, R10); the
 * R12 write order of every admitted turn (inherited prefix, prompt, additional contexts, then
 * what arrived during admission, before step 1); `promptSubmit` once per claimed item (R11) and
 * only an allow opens a turn (R13); a step starts only after its `step` hook passed (R15).
 */
import type { SessionEvent } from '../../src/index.js'
import type { Log } from './log.js'
import type { Schedule } from './schedule.js'

const firstText = (content: readonly { readonly type: string; readonly text?: string }[]) =>
  content[0]?.type === 'text' ? (content[0].text ?? '') : ''

export const checkPrompts = (log: Log, schedule: Schedule): string[] => {
  const problems: string[] = []
  const p = (s: string) => problems.push(s)
  const queued = new Set<string>()
  for (const e of log.live)
    if (e.type === 'agent/inbox/enqueue' && e.placement === 'queued') queued.add(e.message.id)
  const isPrompt = (e: SessionEvent) => e.type === 'user/message' && !!e.data.id && queued.has(e.data.id)

  /** Texts of the claimed prompts (as claimed: a replace may have changed them, R44), with counts. */
  const claimedTexts = new Map<string, number>()
  /** The text each id had when it was last claimed. */
  const claimedText = new Map<string, string>()
  let claimed: string | undefined
  /** Each id's placement as its last enqueue said: only a queued item's dequeue is a claim. */
  const placedNow = new Map<string, 'queued' | 'steering'>()
  const opened = new Set<string>()
  let turnStart = -1
  let prompts = 0
  const durableAt = new Map<SessionEvent, number>()
  log.durable.forEach((e, i) => {
    durableAt.set(e, i)
  })
  log.timeline.forEach((entry, position) => {
    if ('live' in entry) {
      const e = entry.live
      if (e.type === 'agent/inbox/enqueue') placedNow.set(e.message.id, e.placement)
      if (e.type !== 'agent/inbox/dequeue' || placedNow.get(e.message.id) !== 'queued') return
      const next = log.timeline[position + 1]
      const promoted =
        next &&
        'live' in next &&
        next.live.type === 'agent/inbox/enqueue' &&
        next.live.message.id === e.message.id
      if (!promoted) {
        claimed = e.message.id
        const text = firstText(e.message.content)
        claimedText.set(claimed, text)
        claimedTexts.set(text, (claimedTexts.get(text) ?? 0) + 1)
      }
      return
    }
    const e = entry.durable
    if (e.type === 'turn/start') {
      turnStart = durableAt.get(e) ?? -1
      prompts = 0
      const trigger = e.data.trigger
      const turn = { turn: e.data.turn, start: turnStart, position }
      if (trigger.kind === 'retry') problems.push(...checkBlock(log, turn, undefined, isPrompt))
      else if (claimed === undefined || opened.has(claimed))
        p(`R7: turn ${e.data.turn} opened with no claimed item`)
      else {
        opened.add(claimed)
        if (trigger.source.kind !== 'user')
          p(`R12: turn ${e.data.turn} trigger source ${trigger.source.kind}`)
        if (trigger.id !== claimed)
          p(`R12: turn ${e.data.turn} trigger id ${trigger.id} is not the claimed ${claimed}`)
        const text = claimedText.get(claimed) ?? '?'
        problems.push(...checkBlock(log, turn, { id: claimed, text, schedule }, isPrompt))
      }
    } else if (isPrompt(e)) {
      prompts++
      if (turnStart < 0) p(`R7: prompt seq ${e.seq} outside any turn`)
      if (prompts > 1) p(`R7: a second prompt seq ${e.seq} in one turn`)
    } else if (e.type === 'turn/end') turnStart = -1
  })

  // R11: promptSubmit runs once per claim (an interrupted admission's prompt is claimed again,
  // R47), and only for claimed items.
  const runs = new Map<string, number>()
  for (const run of log.prompts) runs.set(run.text, (runs.get(run.text) ?? 0) + 1)
  for (const [text, n] of runs) {
    const claims = claimedTexts.get(text) ?? 0
    if (claims === 0) p(`R11: promptSubmit ran for "${text}", which was never claimed`)
    else if (n > claims) p(`R11: promptSubmit ran ${n} times for "${text}", claimed ${claims} times`)
  }
  // R13: a promptSubmit that throws or decides nonsense at once is reported (step 0); a failing
  // stream may be cut short by a cancel.
  // A failed compaction's agent/error (step 0 too) comes right before its compaction/end (R75).
  const failedAdmissions = log.live.filter(
    (e, i) => e.type === 'agent/error' && e.step === 0 && log.live[i + 1]?.type !== 'agent/compaction/end',
  ).length
  const sure = log.prompts.filter((r) => r.plan.kind === 'throw' || r.plan.kind === 'invalid').length
  const possible = sure + log.prompts.filter((r) => r.plan.kind === 'error').length
  if (failedAdmissions < sure || failedAdmissions > possible)
    p(`R13: ${failedAdmissions} agent/error(step 0) for ${sure}..${possible} failing promptSubmit runs`)
  // R15: a step starts only after its step hook passed.
  if (schedule.plan.stepHooks.length > 0) {
    for (const e of log.durable) {
      if (e.type !== 'step/start') continue
      const runs = log.stepHooks.filter((h) => h.turn === e.data.turn && h.step === e.data.step)
      if (runs.length !== 1 || runs[0]?.plan.kind !== 'ok')
        p(
          `R15: step/start(${e.data.turn}.${e.data.step}) after ${runs.length} step hook runs (${runs.map((r) => r.plan.kind)})`,
        )
    }
  }
  return problems
}

/**
 * R12 for one admitted turn: the events from `turn/start` to the first `step/start` (or the
 * `turn/end`, or a `budget/pause` before step 1) are user/steering messages only: the inherited prefix (accepted before the claim),
 * the prompt, the additional contexts, then what was accepted after the claim, ids ascending.
 */
const checkBlock = (
  log: Log,
  { turn, start, position }: { readonly turn: number; readonly start: number; readonly position: number },
  admitted: { readonly id: string; readonly text: string; readonly schedule: Schedule } | undefined,
  isPrompt: (e: SessionEvent) => boolean,
): string[] => {
  const problems: string[] = []
  const p = (s: string) => problems.push(`R12: turn ${turn}: ${s}`)
  const block: SessionEvent[] = []
  for (const e of log.durable.slice(start + 1)) {
    // R80: a turn admitted with its budget spent pauses before step 1.
    if (e.type === 'step/start' || e.type === 'turn/end' || e.type === 'budget/pause') break
    block.push(e)
  }
  const at = block.findIndex(isPrompt)
  if (!admitted) {
    if (at >= 0) p(`retry turn carries a prompt (seq ${block[at]?.seq})`)
  } else if (at < 0) p(`no prompt before step 1 (claimed ${admitted.id})`)
  const prompt = block[at]
  let contexts: readonly string[] = []
  if (admitted && prompt?.type === 'user/message') {
    if (prompt.data.id !== admitted.id) p(`prompt ${prompt.data.id} is not the claimed item ${admitted.id}`)
    if (prompt.data.source.kind !== 'user') p(`prompt source ${prompt.data.source.kind}`)
    const text = admitted.text
    let expected = text
    if (admitted.schedule.plan.admissions !== null) {
      const run = log.prompts.filter((r) => r.text === text && r.position <= position).at(-1)
      if (run?.plan.kind !== 'allow')
        p(`R13: "${text}" admitted although promptSubmit decided ${run?.plan.kind}`)
      else {
        if (run.plan.rewrite) expected = `${text}*`
        contexts = run.contexts
      }
    }
    if (firstText(prompt.data.content) !== expected)
      p(`prompt text ${firstText(prompt.data.content)} ≠ ${expected}`)
    const after = block.slice(at + 1, at + 1 + contexts.length)
    const got = after.map((e) => (e.type === 'user/message' && !e.data.id ? firstText(e.data.content) : '?'))
    if (got.join() !== contexts.join())
      p(`additional contexts [${got}] after the prompt, expected [${contexts}]`)
  }
  // Context is inherited without steering only after a cancel that kept the inbox (R26), or when
  // it was sent during a compaction right before this turn (R75); else it was appended when the
  // window closed (R13, V1, and before idle).
  const prefix = block.slice(0, Math.max(at, 0))
  if (
    admitted &&
    prefix.some((e) => e.type === 'user/message') &&
    !prefix.some((e) => e.type === 'steering/message') &&
    !log.keepInboxAt.some((x) => x < position) &&
    !compactedBefore(log, position)
  )
    p('inherits context without steering, though no cancel kept the inbox (R13/V1: it is appended at once)')
  const watermark = admitted ? (log.dequeueWatermark.get(admitted.id) ?? '') : ''
  const claimStart = admitted ? (log.claimStart.get(admitted.id) ?? -1) : -1
  /** Where each steering id was last staged (a promote stages an older id anew, R46). */
  const stagedAt = new Map<string, number>()
  log.timeline.forEach((x, at) => {
    if (
      at < position &&
      'live' in x &&
      x.live.type === 'agent/inbox/enqueue' &&
      x.live.placement === 'steering'
    )
      stagedAt.set(x.live.message.id, at)
  })
  let lastId = ''
  block.forEach((e, i) => {
    if (i === at || (i > at && i <= at + contexts.length)) return
    if (e.type !== 'user/message' && e.type !== 'steering/message') {
      p(`${e.type} seq ${e.seq} before step 1`)
      return
    }
    const id = e.data.id
    if (id === undefined) {
      if (i > at && at >= 0) p(`context without id seq ${e.seq} after the prompt and its contexts`)
      else if (e.data.source.kind !== 'tool') p(`context without id seq ${e.seq} (${e.data.source.kind})`)
      return
    }
    // Decision (docs/decisions.md, ordering): ids sort in call order, and nested reentrant calls are placed
    // depth-first, so ids within one block need not ascend; each id appears once.
    if (id === lastId) p(`id ${id} appears twice in a row (seq ${e.seq})`)
    lastId = id
    if (!admitted) return
    const before =
      e.type === 'steering/message'
        ? (stagedAt.get(id) ?? Number.POSITIVE_INFINITY) < claimStart
        : id <= watermark
    if (i < at && !before) p(`seq ${e.seq} (${id}) was accepted after the claim but comes before the prompt`)
    if (i > at && before) p(`seq ${e.seq} (${id}) was staged before the claim but comes after the prompt`)
  })
  return problems
}

/** A compaction ended after the last turn before `position` (R75: the next turn inherits what waited). */
const compactedBefore = (log: Log, position: number): boolean => {
  for (let i = position - 1; i >= 0; i--) {
    const x = log.timeline[i]
    if (x && 'durable' in x && x.durable.type === 'turn/end') return false
    if (x && 'live' in x && x.live.type === 'agent/compaction/end') return true
  }
  return false
}
