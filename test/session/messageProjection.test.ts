/** R77: what the message projection keeps across rollbacks and compactions. */
import { describe, expect, it } from 'vitest'
import type { DurableDraft, SessionEvent } from '../../src/contracts/events.js'
import { MessageProjection, projectMessages } from '../../src/session/messageProjection.js'
import { reachableSlots } from '../support/reachable.js'

/** A log written as an agent would: numbered drafts. */
class Log {
  readonly events: SessionEvent[] = []
  #turn = 0

  add(draft: DurableDraft): void {
    this.events.push({ seq: this.events.length + 1, ...draft } as SessionEvent)
  }

  /** One turn: a prompt and its answer. */
  turn(): number {
    const turn = ++this.#turn
    const text = (t: string) => [{ type: 'text' as const, text: t }]
    this.add({ type: 'turn/start', data: { turn, trigger: { kind: 'message', source: { kind: 'user' } } } })
    this.add({ type: 'user/message', data: { content: text(`q${turn}`), source: { kind: 'user' } } })
    this.add({ type: 'assistant/message', data: { turn, step: 1, content: text(`a${turn}`) } })
    this.add({ type: 'turn/end', data: { turn, reason: { kind: 'completed' } } })
    return turn
  }

  rollback(toTurn: number): void {
    this.add({ type: 'rollback', data: { toTurn } })
  }

  compact(keptFromSeq: number): void {
    const summary = [{ type: 'text' as const, text: `summary ${this.events.length}` }]
    this.add({ type: 'compaction', data: { upToSeq: this.events.length, keptFromSeq, summary } })
  }
}

const folded = (events: readonly SessionEvent[]): MessageProjection => {
  const projection = new MessageProjection()
  for (const event of events) projection.see(event)
  return projection
}

const texts = (events: readonly SessionEvent[]): string[] =>
  projectMessages(events).map((m) => (m.content[0] as { text: string }).text)

describe('R77: rollback keeps the projection in O(messages)', () => {
  it('R77: 2,000 turns with a rollback after every second hold what 1,000 turns without rollbacks hold', () => {
    // Both logs end with the same 2,000 messages of 1,000 turns in the timeline.
    const plain = new Log()
    for (let i = 0; i < 1_000; i++) plain.turn()
    const rolled = new Log()
    for (let i = 0; i < 1_000; i++) {
      const kept = rolled.turn()
      rolled.turn()
      rolled.rollback(kept)
    }
    const withRollbacks = folded(rolled.events)
    const without = folded(plain.events)
    expect(withRollbacks.entries.length).toBe(without.entries.length)
    expect(withRollbacks.timelineTurns.length).toBe(1_000)
    // What each keeps alive, counted by walking it (its messages are shared with nothing else):
    // one list per rollback would be a million slots here.
    expect(reachableSlots(withRollbacks)).toBeLessThan(reachableSlots(without) * 1.2)
  })

  it('R77: a rollback past a compaction still finds the messages as they were, and a later rollback too', () => {
    const log = new Log()
    log.turn() // 1: seqs 1–4
    log.turn() // 2: seqs 5–8
    log.compact(5) // turn 1 summarised
    log.turn() // 3
    log.rollback(1) // back before the compaction: turn 1 as it was
    expect(texts(log.events)).toEqual(['q1', 'a1'])
    log.turn() // 4
    log.turn() // 5
    log.rollback(4)
    expect(texts(log.events)).toEqual(['q1', 'a1', 'q4', 'a4'])
    log.rollback(1)
    expect(texts(log.events)).toEqual(['q1', 'a1'])
    log.turn() // 6
    expect(texts(log.events)).toEqual(['q1', 'a1', 'q6', 'a6'])
    log.rollback(0)
    expect(texts(log.events)).toEqual([])
  })

  it('R77: a rollback after a compaction goes back to the summary and the turns after it', () => {
    const log = new Log()
    log.turn()
    log.turn()
    log.compact(5)
    log.turn() // 3
    log.turn() // 4
    log.rollback(3)
    expect(texts(log.events)).toEqual(['summary 8', 'q2', 'a2', 'q3', 'a3'])
    const projection = folded(log.events)
    expect(projection.timelineTurns).toEqual([1, 2, 3])
    expect(projection.size).toBe(['summary 8', 'q2', 'a2', 'q3', 'a3'].join('').length)
  })
})
