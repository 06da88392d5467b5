import type { SessionEvent } from '../../../src/index.js'

type Placed = { readonly turn: number; readonly step: number; readonly index?: number }

/** A call's key as the library names it (`"turn.step.index"`), from an approval event's data. */
export const decisionKey = (data: Placed): string => `${data.turn}.${data.step}.${data.index ?? '?'}`

/** The tool argument `k` of a call: unique in a run, whatever id the model gave the call. */
export const kOf = (args: string): string => {
  try {
    return String((JSON.parse(args) as { k?: unknown }).k)
  } catch {
    return args
  }
}

/** Each requested call's key, by its tool argument `k`. */
export const requestKeys = (events: readonly SessionEvent[]): Map<string, string> => {
  const keys = new Map<string, string>()
  for (const e of events)
    if (e.type === 'approval/request') keys.set(kOf(e.data.arguments), decisionKey(e.data))
  return keys
}

/**
 * The approvals a log leaves pending, read independently of the library (R61, R65): the calls of
 * the open step of an open turn with an `approval/request`, no decision and no result, in the
 * order of their requests, as keys (the model's ids may repeat or be empty). Results are
 * recorded in model order (R21), so the n-th result of a step answers its call n.
 */
export const pendingInLog = (events: readonly SessionEvent[]): string[] => {
  let pending: string[] = []
  let results = 0
  let at = ''
  for (const e of events) {
    if (
      e.type === 'turn/start' ||
      e.type === 'turn/end' ||
      e.type === 'step/start' ||
      e.type === 'step/end'
    ) {
      pending = []
      results = 0
      if (e.type === 'step/start') at = `${e.data.turn}.${e.data.step}`
    } else if (e.type === 'approval/request') pending.push(decisionKey(e.data))
    else if (e.type === 'approval/decision') pending = pending.filter((key) => key !== decisionKey(e.data))
    else if (e.type === 'tool/result') {
      const answered = `${at}.${results++}`
      pending = pending.filter((key) => key !== answered)
    }
  }
  return pending
}
