/**
 * R50, R51: opening a file store reads its inbox journal like the log: a torn last line is cut, a
 * corrupt line is refused with both files untouched, a journal of records that no longer matter
 * is compacted atomically (the fold unchanged; a crash mid-compaction loses nothing), file system
 * refusals are SessionStoreErrors naming the log, and a journal of 10,000 waiting items opens.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { InboxRecord } from '../../src/contracts/inbox.js'
import {
  createAgent,
  fileStore,
  type SessionEvent,
  SessionLogError,
  SessionStoreError,
} from '../../src/index.js'
import { deliveredIds, replayJournal } from '../../src/session/replayJournal.js'
import { scriptedModel } from '../../src/testing.js'
import { add, id, message, move, promote, replace, settle, view } from '../support/inboxRecords.js'

let dir: string
let path: string
let journal: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'steerable-inbox-open-'))
  path = join(dir, 'session.jsonl')
  journal = `${path}.inbox`
})
afterEach(() => {
  rmSync(dir, { recursive: true, force: true })
})

const lines = (values: readonly unknown[]) => values.map((v) => `${JSON.stringify(v)}\n`).join('')
const prompt = (seq: number, name: string): SessionEvent => ({
  seq,
  type: 'user/message',
  data: { content: message(name).content, source: { kind: 'user' }, id: id(name) },
})

describe('R50: opening a journal', () => {
  it('R50: a torn last line is cut off, listed in warnings, and the file ends at the last whole line', () => {
    const whole = lines([add('A'), add('B')])
    writeFileSync(journal, `${whole}{"op":"add","mess`)
    const store = fileStore(path)
    expect(store.inbox.load()).toStrictEqual([add('A'), add('B')])
    expect(store.warnings).toStrictEqual([`${journal}:3: cut off a torn last line (${tornProblem()})`])
    store.close?.()
    expect(readFileSync(journal, 'utf8')).toBe(whole)
  })

  const corrupt: readonly (readonly [string, string, number, RegExp])[] = [
    [
      'a line that is not JSON in the middle',
      `${lines([add('A')])}{oops\n${lines([add('B')])}`,
      2,
      /invalid JSON/,
    ],
    ['an unknown op', lines([add('A'), { op: 'drop', id: 'A' }]), 2, /invalid inbox record: op: /],
    [
      'a message with an extra key',
      lines([{ ...add('A'), message: { ...message('A'), x: 1 } }]),
      1,
      /message/,
    ],
    ['an empty content', lines([{ ...add('A'), message: { ...message('A'), content: [] } }]), 1, /content/],
    ['an unknown placement', lines([{ ...add('A'), placement: 'later' }]), 1, /placement/],
    [
      'a move with an index instead of before',
      lines([add('A'), { op: 'move', id: 'A', index: 0 }]),
      2,
      /before/,
    ],
    [
      'a whole last line that is JSON but no record',
      `${lines([add('A')])}{"op":"settle"}`,
      2,
      /invalid inbox record/,
    ],
  ]
  it.each(corrupt)(
    'R50: %s is a SessionLogError naming the journal and line; log and journal untouched',
    (_n, text, line, detail) => {
      writeFileSync(journal, text)
      writeFileSync(path, `${lines([prompt(1, 'X')])}{"seq":2,"ty`) // a torn log tail is not cut either
      const before = [readFileSync(journal), readFileSync(path)]
      let error: unknown
      try {
        fileStore(path)
      } catch (e) {
        error = e
      }
      expect(error).toBeInstanceOf(SessionLogError)
      expect((error as SessionLogError).file).toBe(journal)
      expect((error as SessionLogError).line).toBe(line)
      expect((error as Error).message).toMatch(detail)
      expect([readFileSync(journal), readFileSync(path)]).toStrictEqual(before)
      expect(existsSync(`${path}.lock`)).toBe(false)
    },
  )

  it('R50: a journal path that is a directory is a SessionStoreError naming the log', () => {
    mkdirSync(journal)
    const error = (() => {
      try {
        fileStore(path)
      } catch (e) {
        return e
      }
    })()
    expect(error).toBeInstanceOf(SessionStoreError)
    expect((error as SessionStoreError).path).toBe(path)
    expect((error as SessionStoreError).code).toBe('EISDIR')
    expect((error as Error).message).toContain(`${journal} is a directory: remove it`)
    expect(existsSync(`${path}.lock`)).toBe(false)
  })
})

/** A journal where most items settled, were delivered or changed, and the log that delivered some. */
const busyJournal = (items: number) => {
  const records: InboxRecord[] = []
  const events: SessionEvent[] = []
  for (let i = 0; i < items; i++) {
    const n = `M${String(i).padStart(5, '0')}`
    records.push(add(n, i % 7 === 0 ? 'steering' : 'queued'))
    if (i % 4 === 1) records.push(settle(n))
    else if (i % 4 === 2) events.push(prompt(events.length + 1, n))
    else if (i % 4 === 3)
      records.push(
        replace(n, `${n}!`),
        move(n, i % 5 ? null : 'M00000'),
        promote(n, i % 3 ? 'head' : 'steering'),
      )
  }
  return { records, events }
}

describe('R50: compaction on open', () => {
  it('R50: a journal of settled, delivered and changed items shrinks; its fold is unchanged', () => {
    const { records, events } = busyJournal(400)
    writeFileSync(journal, lines(records))
    writeFileSync(path, lines(events))
    const size = statSync(journal).size
    const expected = view(replayJournal(records, deliveredIds(events)))

    const store = fileStore(path)
    expect(statSync(journal).size).toBeLessThan(size / 2)
    const kept = store.inbox.load()
    expect(kept.length).toBe(expected.queue.length + expected.outbox.length + expected.settled.length)
    expect(view(replayJournal(kept, deliveredIds(store.load())))).toStrictEqual(expected)
    expect(existsSync(`${journal}.tmp`)).toBe(false)
    store.close?.()
    const reopened = fileStore(path)
    expect(readFileSync(journal, 'utf8')).toBe(lines(kept)) // compact already: not rewritten
    reopened.close?.()
  })

  it('R50, R42: a journal keeps no line per delivered send: reopened, it holds only the fate the transcript cannot answer', async () => {
    const sends = 200
    const agent = createAgent({ model: scriptedModel(Array(sends + 1).fill('ok')), store: fileStore(path) })
    const ids = Array.from({ length: sends }, (_, i) => agent.followup(`q${i}`))
    const dropped = agent.followup('never run')
    agent.remove(dropped)
    const before = await Promise.all([...ids, dropped].map((i) => agent.outcome(i)))
    expect(before.slice(0, sends).every((o) => o.kind === 'delivered')).toBe(true)
    await agent.dispose()
    const grown = statSync(journal).size

    const reopened = createAgent({ model: scriptedModel([]), store: fileStore(path) })
    // Only the removed item's settlement is left: its fate is written nowhere else.
    expect(readFileSync(journal, 'utf8').trim().split('\n')).toHaveLength(1)
    expect(statSync(journal).size).toBeLessThan(grown / 50)
    expect(await Promise.all([...ids, dropped].map((i) => reopened.outcome(i)))).toStrictEqual(before)
    await reopened.dispose()
  })

  it('R50: a crash during compaction (a temp file left behind) loses nothing: the journal is read, the leftover removed', () => {
    const { records, events } = busyJournal(60)
    writeFileSync(journal, lines(records))
    writeFileSync(path, lines(events))
    writeFileSync(`${journal}.tmp`, `${lines(records.slice(0, 5))}{"op":"ad`) // the rewrite, cut short
    const expected = view(replayJournal(records, deliveredIds(events)))
    const store = fileStore(path)
    expect(view(replayJournal(store.inbox.load(), deliveredIds(events)))).toStrictEqual(expected)
    expect(existsSync(`${journal}.tmp`)).toBe(false)
    store.close?.()
  })

  it('R51: a journal of 10,000 waiting items (and 10,000 settled) opens, compacted, in order', () => {
    const records: InboxRecord[] = []
    for (let i = 0; i < 20_000; i++) records.push(add(`W${String(i).padStart(5, '0')}`))
    for (let i = 1; i < 20_000; i += 2) records.push(settle(`W${String(i).padStart(5, '0')}`))
    writeFileSync(journal, lines(records))
    const store = fileStore(path)
    const { queue, settled } = replayJournal(store.inbox.load(), new Set())
    expect(queue).toHaveLength(10_000)
    expect(settled.size).toBe(10_000)
    expect(queue.map((item) => item.message.id)).toStrictEqual(
      Array.from({ length: 10_000 }, (_, i) => `W${String(i * 2).padStart(5, '0')}`),
    )
    store.close?.()
  })
})

/** The problem text JSON.parse gives for the torn line used above, as this runtime words it. */
const tornProblem = () => {
  try {
    JSON.parse('{"op":"add","mess')
  } catch (error) {
    return `invalid JSON (${(error as Error).message})`
  }
  return ''
}
