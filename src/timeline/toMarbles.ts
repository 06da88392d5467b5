import { HISTORY_EVENTS } from './historyFacts.js'
import { entryLabel } from './shapes.js'
import type { TimelineEntry, TimelineRecord } from './types.js'

export type MarblesOptions = {
  /**
   * `frames` (default when every entry has a time): one frame per millisecond of `t` (a record made
   * on a test scheduler's clock gives back the spec's diagram); `order`: one frame per group.
   */
  readonly time?: 'frames' | 'order'
}

/** What `toMarbles` gives: diagrams per stream, and the legend of their letters. */
export type Marbles = {
  readonly events: string
  readonly transcript: string
  readonly timeline: string
  /**
   * The approvals lane: the durable events of pauses (`approval/request`, `approval/decision`,
   * `budget/pause`), on the timeline's frames; `''` when there were none.
   */
  readonly approvals: string
  /**
   * The history lane: `compaction`, `rollback` and `fork` (R74, R77, R78), on the timeline's
   * frames; `''` when there were none.
   */
  readonly history: string
  /** Letter → label, as the `values` of `expectEvents` / `expectTranscript` / `expectTimeline`. */
  readonly values: Readonly<Record<string, string>>
  /** All of it as text for a bug report or a marble spec. */
  readonly text: string
}

/** The event types of the approvals lane (R61–R67, R80), as `renderTimeline` draws it. */
const PAUSE_EVENTS: ReadonlySet<string> = new Set(['approval/request', 'approval/decision', 'budget/pause'])

/** Characters that mean something in a marble diagram, so never a value's letter. */
const RESERVED = new Set([...'-|#^!() '])
const POOL = [...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'].filter(
  (c) => !RESERVED.has(c),
)

/**
 * A record as the ASCII marble notation of `marbles/`: each distinct label (`enqueue(go,queued)`,
 * `turn/start(1)` …, the labels of `steerable/testing`) gets a letter, events of the same instant
 * are grouped `(abc)`, and the time between is `-` frames (or `Nms` for long gaps). Paste the
 * result into a bug report, or into a marble spec as its expected diagrams.
 *
 * @example console.log(toMarbles(recording.record()).text)
 */
export const toMarbles = (record: TimelineRecord, options: MarblesOptions = {}): Marbles => {
  const values: Record<string, string> = {}
  const letters = new Map<string, string>()
  const letterOf = (text: string): string => {
    const known = letters.get(text)
    if (known) return known
    const used = new Set(letters.values())
    const first = text.replace(/^[^a-zA-Z]+/, '')[0] ?? 'a'
    const letter = [first, first.toUpperCase(), ...POOL].find((c) => POOL.includes(c) && !used.has(c)) ?? '?'
    letters.set(text, letter)
    values[letter] = text
    return letter
  }
  const entries = record.entries.filter((e) => e.stream !== 'journal')
  const frames = options.time !== 'order' && entries.every((e) => typeof e.t === 'number')
  const lettered = entries.map((e) => ({ entry: e, letter: letterOf(entryLabel(e)) }))
  const diagram = (pick: (e: TimelineEntry) => boolean) =>
    layout(
      lettered.filter(({ entry }) => pick(entry)),
      frames,
      record.startedAt ?? entries[0]?.t ?? 0,
    )
  const events = diagram((e) => e.stream === 'events')
  const transcript = diagram((e) => e.stream === 'transcript')
  const timeline = diagram(() => true)
  const approvals = diagram((e) => e.stream === 'transcript' && PAUSE_EVENTS.has(e.event.type))
  const history = diagram((e) => e.stream === 'transcript' && HISTORY_EVENTS.has(e.event.type))
  const legend = Object.entries(values)
    .map(([k, v]) => `${k}: ${JSON.stringify(v)}`)
    .join(', ')
  // A run that never paused (or compacted …) reads as before: a lane's line only when something is on it.
  const lane = (name: string, line: string) => (line === '' ? '' : `\n${`${name}:`.padEnd(12)}'${line}'`)
  const lanes = `${lane('approvals', approvals)}${lane('history', history)}`
  const text = `events:     '${events}'\ntranscript: '${transcript}'\ntimeline:   '${timeline}'${lanes}\nvalues:     { ${legend} }`
  return { events, transcript, timeline, approvals, history, values, text }
}

/**
 * Places groups of letters on a marble line. A group `(abc)` takes as many frames as it has
 * characters, as in RxJS's marble syntax; a gap of more than 10 frames is written `Nms`.
 */
const layout = (
  items: readonly { entry: TimelineEntry; letter: string }[],
  frames: boolean,
  t0: number,
): string => {
  const groups: { at: number; letters: string[] }[] = []
  items.forEach(({ entry, letter }, i) => {
    const at = entry.t === undefined ? i : entry.t - t0
    const last = groups[groups.length - 1]
    const same = last !== undefined && entry.t !== undefined && last.at === at
    if (same) last.letters.push(letter)
    else groups.push({ at, letters: [letter] })
  })
  let out = ''
  let cursor = 0
  for (const [i, group] of groups.entries()) {
    // By order: one `-` between groups; by frames: the gap to the group's own frame.
    const target = frames ? Math.max(group.at, cursor) : cursor + (i === 0 ? 0 : 1)
    const gap = target - cursor
    out += gap > 10 ? ` ${gap}ms ` : '-'.repeat(gap)
    const text = group.letters.length === 1 ? group.letters[0]! : `(${group.letters.join('')})`
    out += text
    cursor = target + text.length
  }
  return out.trim()
}
