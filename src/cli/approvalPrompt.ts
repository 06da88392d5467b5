import type { Agent } from '../contracts/agent.js'
import type { PendingApproval } from '../contracts/approvals.js'
import { oneLine } from './inboxList.js'

/** A person's answer to the approval the app asks about (R67). */
export type ApprovalAnswer = { readonly kind: 'yes' } | { readonly kind: 'no'; readonly reason?: string }

/**
 * `y` approves; `n` denies, and `n <reason>` denies with that reason (shown to the model). Any
 * other line is no answer: it is taken as the app takes text, a steer that waits for the decision.
 */
export const parseAnswer = (line: string): ApprovalAnswer | undefined => {
  const trimmed = line.trim()
  if (/^y$/i.test(trimmed)) return { kind: 'yes' }
  const no = /^n(?:\s+(.+))?$/is.exec(trimmed)
  if (!no) return undefined
  return no[1] === undefined ? { kind: 'no' } : { kind: 'no', reason: no[1] }
}

/** What `y` and `n` answer: the first pending call, in the model's order. */
export const askedApproval = (agent: Agent): PendingApproval | undefined => agent.approvals[0]

/** How to answer, for a hint or a prompt. */
export const ANSWER_HELP = 'y approves · n or n <reason> denies'

/**
 * The question for the call `y` and `n` answer, cut to `columns`: its name and arguments first,
 * then how to answer, and how many more calls wait after it.
 */
export const approvalQuestion = (agent: Agent, columns: number): string | undefined => {
  const asked = askedApproval(agent)
  if (!asked) return undefined
  const more = agent.approvals.length - 1
  const tail = `? ${ANSWER_HELP}${more > 0 ? ` (${more} more wait)` : ''}`
  const call = `approve ${asked.name}(${asked.arguments})`
  return `${oneLine(call, Math.max(20, columns - tail.length - 1))}${tail}`
}

/**
 * Decides the asked call. Returns lines to show: none when it was decided (the transcript shows
 * the decision), or why not.
 */
export const answerApproval = (agent: Agent, answer: ApprovalAnswer): string[] => {
  const asked = askedApproval(agent)
  if (!asked) return ['no tool call waits for approval']
  // By its key: the model may have given two calls one id (or an empty one).
  if (answer.kind === 'yes') agent.approve(asked.key)
  else agent.deny(asked.key, answer.reason === undefined ? {} : { reason: answer.reason })
  return []
}
