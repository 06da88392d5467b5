/**
 * The end of an append-only file that is written behind its appends, as a pure record: where the
 * next write goes, the text appended and not written yet, and the write in flight. The file's
 * owner keeps one, hands it the events below, and does the I/O it asks for (writes `writing` at
 * `end`); the record itself does no I/O.
 *
 * A write that fails puts its text back in front of what was appended meanwhile, so the next
 * write writes the same bytes at the same position: a partial write leaves no gap and no
 * duplicate (R40).
 *
 * The text is kept in pieces of at most {@link PIECE} characters, each grown by `+` (V8 keeps
 * such a string as a rope until it is read, so an append copies nothing already buffered). One
 * string cannot pass V8's limit (about 512 Mi characters): a store that buffered more than that
 * between two checkpoints failed every append from then on, and never wrote again.
 */
export type FileTail = {
  /** The byte offset where the next write goes: the end of what is durable. */
  readonly end: number
  /** Text appended and not handed to a write yet, in order, in pieces. */
  readonly buffered: Pieces
  /** The text being written at `end`, in pieces; `undefined` while no write is in flight. */
  readonly writing: Pieces | undefined
}

/** Text in order, as pieces of at most {@link PIECE} characters (an empty list: no text). */
export type Pieces = readonly string[]

/** The most characters a piece grows to before a new one starts (a single longer text is one piece). */
export const PIECE = 1 << 26

export type FileTailEvent =
  /** Text to write after everything before it. */
  | { readonly type: 'append'; readonly text: string }
  /** A write starts: everything buffered is written at `end` (a write of nothing too: it fsyncs). */
  | { readonly type: 'write' }
  /** The write in flight is durable; it was `bytes` bytes long. */
  | { readonly type: 'written'; readonly bytes: number }
  /** The write in flight failed: the next write writes its text again, first. */
  | { readonly type: 'failed' }

export const NO_TEXT: Pieces = Object.freeze([])

/** A file whose valid part is `end` bytes long, with `buffered` still to write. */
export const fileTail = (end: number, buffered = ''): FileTail => ({
  end,
  buffered: buffered === '' ? NO_TEXT : [buffered],
  writing: undefined,
})

/**
 * The tail after `event`. An event that does not apply (a second write while one is in flight, an
 * outcome with none in flight, an empty append) returns `tail` itself.
 */
export const nextFileTail = (tail: FileTail, event: FileTailEvent): FileTail => {
  switch (event.type) {
    case 'append':
      return event.text === ''
        ? tail
        : { end: tail.end, buffered: appendText(tail.buffered, event.text), writing: tail.writing }
    case 'write':
      return tail.writing !== undefined ? tail : { end: tail.end, buffered: NO_TEXT, writing: tail.buffered }
    case 'written':
      return tail.writing === undefined
        ? tail
        : { end: tail.end + event.bytes, buffered: tail.buffered, writing: undefined }
    case 'failed':
      return tail.writing === undefined
        ? tail
        : { end: tail.end, buffered: [...tail.writing, ...tail.buffered], writing: undefined }
  }
}

const appendText = (pieces: Pieces, text: string): Pieces => {
  const last = pieces[pieces.length - 1]
  if (last === undefined || last.length + text.length > PIECE) return [...pieces, text]
  const next = pieces.slice()
  next[next.length - 1] = last + text
  return next
}
