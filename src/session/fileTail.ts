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
 * The text is one string grown by `+`: V8 keeps such a string as a rope until it is read, so an
 * append copies nothing that is already buffered.
 */
export type FileTail = {
  /** The byte offset where the next write goes: the end of what is durable. */
  readonly end: number
  /** Text appended and not handed to a write yet. */
  readonly buffered: string
  /** The text being written at `end`; `undefined` while no write is in flight. */
  readonly writing: string | undefined
}

export type FileTailEvent =
  /** Text to write after everything before it. */
  | { readonly type: 'append'; readonly text: string }
  /** A write starts: everything buffered is written at `end` (a write of nothing too: it fsyncs). */
  | { readonly type: 'write' }
  /** The write in flight is durable; it was `bytes` bytes long. */
  | { readonly type: 'written'; readonly bytes: number }
  /** The write in flight failed: the next write writes its text again, first. */
  | { readonly type: 'failed' }

/** A file whose valid part is `end` bytes long, with `buffered` still to write. */
export const fileTail = (end: number, buffered = ''): FileTail => ({ end, buffered, writing: undefined })

/**
 * The tail after `event`. An event that does not apply (a second write while one is in flight, an
 * outcome with none in flight, an empty append) returns `tail` itself.
 */
export const nextFileTail = (tail: FileTail, event: FileTailEvent): FileTail => {
  switch (event.type) {
    case 'append':
      return event.text === ''
        ? tail
        : { end: tail.end, buffered: tail.buffered + event.text, writing: tail.writing }
    case 'write':
      return tail.writing !== undefined ? tail : { end: tail.end, buffered: '', writing: tail.buffered }
    case 'written':
      return tail.writing === undefined
        ? tail
        : { end: tail.end + event.bytes, buffered: tail.buffered, writing: undefined }
    case 'failed':
      return tail.writing === undefined
        ? tail
        : { end: tail.end, buffered: tail.writing + tail.buffered, writing: undefined }
  }
}
