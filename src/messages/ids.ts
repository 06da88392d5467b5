import { encodeTime, ULIDError, ULIDErrorCode, ulid } from 'ulid'
import type { AgentMessageId } from '../contracts/messages.js'

/**
 * Randomness for ulid from a pooled buffer: ulid's default PRNG calls
 * `crypto.getRandomValues` once per character, which dominated the cost of accepting a send.
 * A byte / 256 picks each of the 32 ULID characters uniformly (256 is a multiple of 32).
 */
const pool = new Uint8Array(4096)
let at = pool.length
export const pooledPrng = (): number => {
  if (at === pool.length) {
    globalThis.crypto.getRandomValues(pool)
    at = 0
  }
  return (pool[at++] as number) / 256
}

const ENCODING = '0123456789ABCDEFGHJKMNPQRSTVWXYZ'
const TIME_LEN = 10
const ID_LEN = 26
const ZERO = ENCODING.charCodeAt(0)
const LAST = ENCODING.charCodeAt(ENCODING.length - 1)
/** Crockford base32 character code → the next one; 0 for `Z` (it carries) and non-digits. */
const NEXT_CODE = new Uint8Array(128)
for (let i = 0; i + 1 < ENCODING.length; i++) NEXT_CODE[ENCODING.charCodeAt(i)] = ENCODING.charCodeAt(i + 1)

/** ulid's random part (its package does not export `encodeRandom`): 16 fresh characters. */
const freshRandomPart = (): string => ulid(1, pooledPrng).slice(TIME_LEN)

/**
 * A minter of `AgentMessageId`s with the semantics of ulid's `monotonicFactory`: the time part
 * from ulid's `encodeTime`, a fresh random part from `ulid` when the clock moved forward, and
 * otherwise the previous random part plus one (exactly ulid's `incrementBase32`, tested against
 * it), so ids minted by one minter sort as strings in minting order, even within a millisecond
 * or when the clock goes backwards.
 *
 * One difference: a clock reading of 0 is encoded as time 0 (ulid's factory replaces a falsy
 * time with `Date.now()`), so a virtual clock is followed as it is.
 *
 * Why not `monotonicFactory` itself: it re-encodes the time and increments by string surgery on
 * every call, about 30 short concatenations per id, and the result is a rope of cons strings
 * (~130 heap bytes per retained id, more than the rest of a queued message). Here the 26
 * character codes live in one array; the first 25 are made into a string once per run of ids
 * that share them, and each id is that string and its last character.
 *
 * @param now The clock for the time part; pass the scheduler's `now` to follow virtual time.
 * @param randomPart 16 Crockford base32 characters for a new millisecond (tests pin it).
 */
export const createIdMinter = (
  now: () => number = Date.now,
  randomPart: () => string = freshRandomPart,
): (() => AgentMessageId) => {
  const codes: number[] = new Array<number>(ID_LEN).fill(ZERO)
  let lastTime = -1
  /** The first 25 characters of the last id, while only its last character moves. */
  let prefix: string | undefined
  const write = (text: string, from: number): void => {
    for (let i = 0; i < text.length; i++) codes[from + i] = text.charCodeAt(i)
  }
  /** Adds one to the random part; at `ZZZ…Z` it throws and changes nothing, as ulid does. */
  const increment = (): void => {
    let i = ID_LEN - 1
    while (i >= TIME_LEN && codes[i] === LAST) i--
    if (i < TIME_LEN) throw new ULIDError(ULIDErrorCode.Base32IncorrectEncoding, 'Failed incrementing string')
    codes[i] = NEXT_CODE[codes[i] as number] as number
    for (let j = i + 1; j < ID_LEN; j++) codes[j] = ZERO
    if (i < ID_LEN - 1) prefix = undefined
  }
  return () => {
    const time = now()
    if (time > lastTime) {
      // Encoded before it is taken: a time encodeTime refuses (negative, fractional, too big)
      // throws here and leaves the minter as it was.
      const encoded = encodeTime(time, TIME_LEN)
      write(encoded, 0)
      write(randomPart(), TIME_LEN)
      lastTime = time
      prefix = undefined
    } else increment()
    // Within a millisecond most ids differ from the last in their last character only: the
    // prefix is shared, and the id is it and one character (one small string, not 26 codes).
    prefix ??= String.fromCharCode.apply(null, codes.slice(0, ID_LEN - 1))
    return (prefix + (CHAR[codes[ID_LEN - 1] as number] as string)) as AgentMessageId
  }
}

/** Each character by its code, for the last character of an id. */
const CHAR: readonly string[] = Array.from({ length: 128 }, (_, code) => String.fromCharCode(code))
