import type { PendingApproval } from '../../contracts/approvals.js'

/** What the approval buttons do: decide `callId`, with the reason typed in its box (R67). */
export type ApprovalActions = {
  approve(callId: string, reason: string): void
  deny(callId: string, reason: string): void
}

const element = <K extends keyof HTMLElementTagNameMap>(tag: K, testId: string, text = '') => {
  const el = document.createElement(tag)
  el.dataset.testid = testId
  el.textContent = text
  return el
}

/** One pending call: its name and arguments as text (model data never becomes markup), a reason box, the buttons. */
const approvalItem = (approval: PendingApproval, actions: ApprovalActions): HTMLElement => {
  const li = element('li', 'approval')
  li.dataset.callId = approval.callId
  // The key names the call even when the model gave two calls one id (or an empty one).
  const key = approval.key ?? approval.callId
  const name = element('strong', 'approval-name', approval.name)
  const args = element('code', 'approval-arguments', approval.arguments)
  const reason = element('input', 'approval-reason')
  reason.placeholder = 'Reason (optional)'
  reason.title = 'Told to the model with the decision; Enter denies'
  reason.autocomplete = 'off'
  const approve = element('button', 'approve', 'Approve')
  const deny = element('button', 'deny', 'Deny')
  for (const button of [approve, deny]) button.type = 'button'
  approve.addEventListener('click', () => actions.approve(key, reason.value))
  deny.addEventListener('click', () => actions.deny(key, reason.value))
  // Enter in the reason box denies: a reason is mostly given for a refusal.
  reason.addEventListener('keydown', (event) => {
    if (event.key !== 'Enter') return
    event.preventDefault()
    actions.deny(key, reason.value)
  })
  li.append(name, args, reason, approve, deny)
  return li
}

/**
 * Draws the calls that wait for a decision. A call still pending keeps its element, so a reason
 * half typed is not lost when another call is decided; the panel shows only while one waits.
 */
export const renderApprovals = (
  panel: HTMLElement,
  list: HTMLElement,
  approvals: readonly PendingApproval[],
  actions: ApprovalActions,
) => {
  const kept = new Map<string, HTMLElement>()
  for (const child of Array.from(list.children))
    if (child instanceof HTMLElement && child.dataset.callId) kept.set(child.dataset.callId, child)
  list.replaceChildren(...approvals.map((a) => kept.get(a.callId) ?? approvalItem(a, actions)))
  panel.hidden = approvals.length === 0
}
