import type { Agent } from '../contracts/agent.js'
import type { SessionEvent } from '../contracts/events.js'
import type { InboxSnapshot, Outcome } from '../contracts/inbox.js'
import type { AgentMessageId } from '../contracts/messages.js'
import { errorText } from '../messages/errorText.js'
import { itemText, oneLine, waitingItems } from './inboxList.js'

/**
 * What became of a message, as a receipt: `✓ ran as turn 4`, `✓ steered into 2.3` (turn.step:
 * the step that reads it, `read`, when known; a steer that cut a step says which, `(cut 2.2)`),
 * `✓ noted (context)`, `✗ dropped (cancel)`, `✗ blocked (why)`. `read.step` is undefined when
 * the turn ended before another step ran.
 */
export const receiptLine = (outcome: Outcome, read?: { readonly step: number | undefined }): string => {
  switch (outcome.kind) {
    case 'delivered': {
      if (outcome.as === 'prompt') return `✓ ran as turn ${outcome.turn}`
      if (outcome.as !== 'steering') return '✓ noted (context)'
      const cut = outcome.interrupted ? ` (cut ${outcome.interrupted.turn}.${outcome.interrupted.step})` : ''
      if (!read) return `✓ steered into ${outcome.turn}.${outcome.step}${cut}`
      return read.step === undefined
        ? `✓ steered into turn ${outcome.turn}, which ended before another step read it${cut}`
        : `✓ steered into ${outcome.turn}.${read.step}${cut}`
    }
    case 'blocked':
      return `✗ blocked (${errorText(outcome.reason)})`
    case 'discarded':
      return `✗ dropped (${outcome.reason})`
    case 'refused':
      return `✗ refused (${errorText(outcome.error)})`
  }
}

type Mark = { readonly seq: number; readonly turn: number; readonly step: number | undefined }

/**
 * Which step reads a steer, from the transcript: the first `step/start` of its turn after its
 * `steering/message`. The outcome's own `step` is the step whose `step/end` follows the steer
 * (R42), which is the step before the one that reads it when the steer was drained at that
 * step's end (tools running, or an interrupting steer's cut).
 */
export class SteerReaders {
  private readonly marks: Mark[] = []
  private readonly waiting: { seq: number; turn: number; resolve: (step: number | undefined) => void }[] = []

  /** Feed it every transcript event, in order. */
  see(event: SessionEvent): void {
    if (event.type !== 'step/start' && event.type !== 'turn/end') return
    const step = event.type === 'step/start' ? event.data.step : undefined
    const mark = { seq: event.seq, turn: event.data.turn, step }
    this.marks.push(mark)
    for (const w of this.waiting.filter((w) => w.turn === mark.turn && w.seq < mark.seq)) {
      this.waiting.splice(this.waiting.indexOf(w), 1)
      w.resolve(mark.step)
    }
  }

  /** The step that reads the steer delivered as `outcome`, once the transcript shows it. */
  readBy(outcome: { readonly turn: number; readonly seq: number }): Promise<{ step: number | undefined }> {
    const { turn, seq } = outcome
    const mark = this.marks.find((m) => m.turn === turn && m.seq > seq)
    if (mark) return Promise.resolve({ step: mark.step })
    return new Promise((resolve) => this.waiting.push({ seq, turn, resolve: (step) => resolve({ step }) }))
  }

  /** The receipt of `outcome`: a steer's once the step that reads it is known. */
  receipt(outcome: Outcome): Promise<string> {
    if (outcome.kind !== 'delivered' || outcome.as !== 'steering')
      return Promise.resolve(receiptLine(outcome))
    return this.readBy(outcome).then((read) => receiptLine(outcome, read))
  }
}

/**
 * Prints a receipt for each message the user sent, once its outcome settles, naming its text
 * (kept current when the user edits a waiting item in place).
 */
export class Receipts {
  private readonly texts = new Map<AgentMessageId, string>()
  private readonly readers = new SteerReaders()

  constructor(
    private readonly agent: Agent,
    private readonly print: (line: string, ok: boolean) => void,
  ) {
    agent.transcript$.subscribe((event) => this.readers.see(event))
  }

  track(id: AgentMessageId, text: string): void {
    this.texts.set(id, text)
    const done = (line: string, ok: boolean) => {
      const sent = this.texts.get(id) ?? text
      this.texts.delete(id)
      this.print(`${line} · ${oneLine(sent, 60)}`, ok)
    }
    // `outcome` never rejects for an id `send` returned; if it ever did, say so instead of hiding it.
    this.agent.outcome(id).then(
      (outcome) => this.readers.receipt(outcome).then((line) => done(line, outcome.kind === 'delivered')),
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
