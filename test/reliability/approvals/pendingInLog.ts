import type { SessionEvent } from '../../../src/index.js'

/**
 * The approvals a log leaves pending, read independently of the library (R61, R65): the calls of
 * the open step of an open turn with an `approval/request`, no decision and no result, in the
 * order of their requests.
 */
export const pendingInLog = (events: readonly SessionEvent[]): string[] => {
  let pending: string[] = []
  for (const e of events) {
    if (e.type === 'turn/start' || e.type === 'turn/end' || e.type === 'step/start' || e.type === 'step/end')
      pending = []
    else if (e.type === 'approval/request') pending.push(e.data.callId)
    else if (e.type === 'approval/decision') pending = pending.filter((id) => id !== e.data.callId)
    else if (e.type === 'tool/result') pending = pending.filter((id) => id !== e.data.result.toolCallId)
  }
  return pending
}
