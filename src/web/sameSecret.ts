import { createHash, timingSafeEqual } from 'node:crypto'

const digest = (text: string): Buffer => createHash('sha256').update(text, 'utf8').digest()

/**
 * Whether `given` is `secret`, in time that does not depend on where they differ nor on their
 * lengths or bytes: both are hashed (SHA-256) and the digests, always 32 bytes, compared with
 * `timingSafeEqual`. Comparing the raw bytes would throw on a guess of the right length in
 * characters but not in bytes (a non-ASCII character), and a length check first tells the length.
 */
export const sameSecret = (given: string, secret: string): boolean =>
  timingSafeEqual(digest(given), digest(secret))
