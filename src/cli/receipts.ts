import type { Agent } from '../contracts/agent.js'
import type { InboxSnapshot, Outcome } from '../contracts/inbox.js'
import type { AgentMessageId } from '../contracts/messages.js'
import { errorText } from '../messages/errorText.js'
import { itemText, oneLine, waitingItems } from './inboxList.js'

/**
 * What became of a message, as a receipt: `✓ ran as turn 4`, `✓ steered into 2.3` (turn.step:
 * the step that saw it), `✓ noted (context)`, `✗ dropped (cancel)`, `✗ blocked (why)`.
 */
export const receiptLine = (outcome: Outcome): string => {
  switch (outcome.kind) {
    case 'delivered':
      if (outcome.as === 'prompt') return `✓ ran as turn ${outcome.turn}`
      if (outcome.as === 'steering') return `✓ steered into ${outcome.turn}.${outcome.step}`
      return '✓ noted (context)'
    case 'blocked':
      return `✗ blocked (${errorText(outcome.reason)})`
    case 'discarded':
      return `✗ dropped (${outcome.reason})`
    case 'refused':
      return `✗ refused (${errorText(outcome.error)})`
  }
}

/**
 * Prints a receipt for each message the user sent, once its outcome settles, naming its text
 * (kept current when the user edits a waiting item in place).
 */
export class Receipts {
  private readonly texts = new Map<AgentMessageId, string>()

  constructor(
    private readonly agent: Agent,
    private readonly print: (line: string, ok: boolean) => void,
  ) {}

  track(id: AgentMessageId, text: string): void {
    this.texts.set(id, text)
    const done = (line: string, ok: boolean) => {
      const sent = this.texts.get(id) ?? text
      this.texts.delete(id)
      this.print(`${line} · ${oneLine(sent, 60)}`, ok)
    }
    // `outcome` never rejects for an id `send` returned; if it ever did, say so instead of hiding it.
    this.agent.outcome(id).then(
      (outcome) => done(receiptLine(outcome), outcome.kind === 'delivered'),
      (error: unknown) => done(`? no outcome (${errorText(error)})`, false),
    )
  }

  /** Keeps the texts of tracked items current (`replace` changed them in place). */
  update(inbox: InboxSnapshot): void {
    for (const item of waitingItems(inbox)) {
      if (this.texts.has(item.message.id)) this.texts.set(item.message.id, itemText(item))
    }
  }
}
