import type { Rest } from '../adapterKit/redact.js'

/** The start of a response body, and what is known of the rest. */
export type BodyStart = {
  /** The bytes kept, decoded as UTF-8 (a character cut at the limit is dropped). */
  readonly text: string
  /** The bytes that were not kept: counted when the body ended or said its length, else a lower bound. */
  readonly rest: Rest
}

/**
 * Reads at most `limit` bytes of a body and cancels the rest, so that an error body of any size
 * (or one that never ends) costs at most `limit` bytes of memory and one read past them. This is
 * the I/O edge: a plain async function over the body reader.
 */
export const readBodyStart = async (response: Response, limit: number): Promise<BodyStart> => {
  const reader = response.body?.getReader()
  if (!reader) return { text: '', rest: { bytes: 0, exact: true } }
  const kept: Uint8Array[] = []
  let keptBytes = 0
  let seen = 0
  let ended = false
  while (keptBytes < limit) {
    const { done, value } = await reader.read()
    if (done) {
      ended = true
      break
    }
    seen += value.length
    const take = value.subarray(0, limit - keptBytes)
    kept.push(take)
    keptBytes += take.length
  }
  if (!ended) reader.cancel().catch(() => {})
  const text = new TextDecoder().decode(concat(kept, keptBytes), { stream: true })
  return { text, rest: restOf(response, keptBytes, seen, ended) }
}

const restOf = (response: Response, kept: number, seen: number, ended: boolean): Rest => {
  if (ended) return { bytes: seen - kept, exact: true }
  // `content-length` counts the encoded body; fetch hands over the decoded one.
  const header = response.headers.has('content-encoding') ? null : response.headers.get('content-length')
  const length = header === null ? Number.NaN : Number(header)
  return Number.isSafeInteger(length) && length >= seen
    ? { bytes: length - kept, exact: true }
    : { bytes: seen - kept, exact: false }
}

const concat = (chunks: readonly Uint8Array[], length: number): Uint8Array => {
  const out = new Uint8Array(length)
  let at = 0
  for (const chunk of chunks) {
    out.set(chunk, at)
    at += chunk.length
  }
  return out
}
