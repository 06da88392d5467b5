import type { ApprovalDecisionData, ApprovalRequestData, BudgetPauseData } from '../contracts/events.js'

/** The part of the app's `Style` these lines use (format.ts imports this file). */
type Style = { readonly dim: (s: string) => string; readonly bold: (s: string) => string }

/**
 * The lines for the events of a pause (R61, R62, R80), the same wherever a transcript is shown
 * (the app, `attach`): each names the call id, which is what a decision is given. How to answer
 * is said by each surface itself, since each takes its answer differently.
 */
export const requestLine = (data: ApprovalRequestData, style: Style): string =>
  style.bold(`  ⏸ ${data.name}(${data.arguments}) waits for approval (call ${data.callId})`)

export const decisionLine = (data: ApprovalDecisionData, style: Style): string => {
  const what = data.decision === 'approved' ? '✓ approved' : '✗ denied'
  // A decision nobody typed (a timeout, a send with onApproval: 'deny') says who made it.
  const by = data.source.kind === 'user' && data.byMessage === undefined ? '' : ` by ${data.source.kind}`
  const reason = data.reason ? `: ${data.reason}` : ''
  return style.dim(`  ${what} call ${data.callId}${by}${reason}`)
}

export const budgetLine = (data: BudgetPauseData, style: Style): string => {
  const { usage, limits } = data
  const bounds = [
    limits.maxTotalTokens === undefined ? undefined : `${limits.maxTotalTokens} tokens`,
    limits.maxRequests === undefined ? undefined : `${limits.maxRequests} requests`,
  ].filter((bound) => bound !== undefined)
  return style.bold(
    `  ⏸ over budget after step ${data.turn}.${data.step}: ${usage.totalTokens} tokens and ${usage.requests} requests used (limit ${bounds.join(', ')})`,
  )
}
