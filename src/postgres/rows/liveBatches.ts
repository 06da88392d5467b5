/**
 * The largest payload sent: PostgreSQL refuses a NOTIFY payload of 8000 bytes or more (in its
 * default build), so a batch stays safely under.
 */
export const LIVE_PAYLOAD_BYTES = 7_900

/** One notification: session `s`, publisher `p` (one per `publishEvents`), batch `n`, events `e`. */
export type LiveBatch = {
  readonly s: string
  readonly p: string
  readonly n: number
  readonly e: readonly unknown[]
}

/**
 * How many bytes of events one batch of `publisher` for `sessionId` may carry: the payload limit
 * less the envelope around the events, with room for the largest batch number.
 */
export const liveBatchRoom = (sessionId: string, publisher: string): number =>
  LIVE_PAYLOAD_BYTES - Buffer.byteLength(JSON.stringify({ s: sessionId, p: publisher, n: 1e15, e: [] })) - 1

/**
 * Live events (each one JSON text, see `encodeLiveEvent`) as the payloads of as few notifications
 * as fit in `room` bytes of events each, in order, numbered after batch `last`.
 */
export const liveBatches = (
  sessionId: string,
  publisher: string,
  last: number,
  texts: readonly string[],
  room: number,
): string[] => {
  const out: string[] = []
  let current: string[] = []
  let size = 0
  const close = () => {
    if (current.length === 0) return
    const n = last + out.length + 1
    out.push(`{"s":${JSON.stringify(sessionId)},"p":"${publisher}","n":${n},"e":[${current.join(',')}]}`)
    current = []
    size = 0
  }
  for (const text of texts) {
    const bytes = Buffer.byteLength(text) + 1
    if (size + bytes > room) close()
    current.push(text)
    size += bytes
  }
  close()
  return out
}

/** Whether a notification's parsed payload is a batch of `sessionId` (not another's, not noise). */
export const isLiveBatch = (value: unknown, sessionId: string): value is LiveBatch => {
  const batch = value as Partial<LiveBatch> | null
  return (
    typeof batch === 'object' &&
    batch !== null &&
    batch.s === sessionId &&
    typeof batch.p === 'string' &&
    Number.isInteger(batch.n) &&
    Array.isArray(batch.e)
  )
}
