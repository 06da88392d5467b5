import type { SessionEvent } from '../contracts/events.js'
import type { LayoutBuilder } from './builder.js'
import { type HistoryFact, HistoryFacts } from './historyFacts.js'

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`
/** ` (seq 2–38)`: the first and last seq of `seqs` (in order), or nothing for none. */
export const seqRange = (seqs: readonly number[]): string => {
  const [first, last] = [seqs[0], seqs[seqs.length - 1]]
  return first === undefined ? '' : first === last ? ` (seq ${first})` : ` (seq ${first}–${last})`
}
export const turnList = (turns: readonly number[]): string =>
  `${turns.length === 1 ? 'turn' : 'turns'} ${turns.join(', ')}`

/** What a history event did, in a sentence: the title of its transcript mark. */
export const historyNote = (fact: HistoryFact): string => {
  switch (fact.kind) {
    case 'compaction':
      return `summary replaced ${plural(fact.replaced.length, 'message')}${seqRange(fact.replaced)}; kept ${plural(fact.kept, 'message')} after them`
    case 'rollback':
      return fact.undone.length === 0
        ? `back to the end of turn ${fact.toTurn}: nothing left to undo`
        : `undid ${turnList(fact.undone)}: ${plural(fact.removed.length, 'message')} left the conversation${seqRange(fact.removed)}${
            fact.restored > 0 ? `, ${fact.restored} that a compaction had replaced came back` : ''
          }`
    case 'fork':
      return `forked from session ${fact.from} at the end of turn ${fact.atTurn}: the ${plural(fact.copied, 'event')} before are its copy`
  }
}

/**
 * The history lane (R74, R77, R78), drawn only when a record has a `compaction`, `rollback` or
 * `fork`. Each is a bar over what it acted on, with an arrow to its own transcript mark: the
 * messages a compaction's summary replaced, the turns a rollback undid (their turn bars are
 * drawn faded as well), the events a fork copied. One that acted on nothing in the record is a
 * mark. Returns a layout function that must see every durable event, in order (the facts are
 * the agent's own fold of them); it gives back the sentence for a history event's mark.
 */
export const historyLayout = (b: LayoutBuilder) => {
  const facts = new HistoryFacts()
  /** Each durable event's position, by seq: where a range of seqs is drawn. */
  const atSeq = new Map<number, number>()
  let lastAt: number | undefined
  let firstAt: number | undefined

  const draw = (e: SessionEvent, fact: HistoryFact, at: number, from?: number, to?: number) => {
    const info = { ...fact, event: e }
    const text =
      fact.kind === 'compaction'
        ? `compacted ${plural(fact.replaced.length, 'message')}`
        : fact.kind === 'rollback'
          ? `undid ${turnList(fact.undone)}`
          : `copied from ${fact.from}`
    if (from === undefined || to === undefined) {
      b.mark({ lane: 'history', row: 0, at, cls: `history ${fact.kind}`, text: historyNote(fact), info })
      return
    }
    const bar = b.start({ key: `history:${e.seq}`, lane: 'history', at: from, cls: fact.kind, text, info })
    b.close(`history:${e.seq}`, to)
    b.link(bar, at)
  }

  return (e: SessionEvent, at: number): string | undefined => {
    const fact = facts.see(e)
    const before = lastAt
    atSeq.set(e.seq, at)
    lastAt = at
    firstAt ??= at
    if (!fact) return undefined
    if (fact.kind === 'compaction') {
      const [first, last] = [fact.replaced[0], fact.replaced[fact.replaced.length - 1]]
      const where = (seq: number | undefined) => (seq === undefined ? undefined : atSeq.get(seq))
      draw(e, fact, at, where(first), where(last))
    } else if (fact.kind === 'rollback') {
      const turns = fact.undone.flatMap((turn) => {
        const bar = b.started(`turn:${turn}`)
        return bar ? [bar] : []
      })
      for (const bar of turns) {
        bar.cls += ' rolled-back'
        b.infoOf(bar).rolledBackBy = { seq: e.seq, toTurn: fact.toTurn }
      }
      draw(e, fact, at, turns[0]?.from, turns[turns.length - 1]?.to)
    } else {
      draw(e, fact, at, fact.copied > 0 ? firstAt : undefined, before)
    }
    return historyNote(fact)
  }
}
