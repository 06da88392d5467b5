/** How many rows one read fetches at most: a read that gets this many says there is more. */
export const PAGE = 500

/**
 * Reads woken by notifications and timers, one at a time: a wake during a read makes one more
 * read after it, and so does a read that says there is more (a full page). The first failure
 * stops it and goes to `failed`; `stop()` stops it quietly.
 */
export const serialReads = (
  read: () => Promise<boolean>,
  failed: (error: unknown) => void,
): { wake(): void; stop(): void } => {
  let reading = false
  let again = false
  let stopped = false
  const wake = (): void => {
    if (stopped) return
    if (reading) {
      again = true
      return
    }
    reading = true
    again = false
    read().then(
      (more) => {
        reading = false
        if (more || again) wake()
      },
      (error: unknown) => {
        if (stopped) return
        stopped = true
        failed(error)
      },
    )
  }
  return {
    wake,
    stop: () => {
      stopped = true
    },
  }
}

/**
 * Runs `reads` now, on each notification of `channel` for `key`, and every `pollMs` (a missed
 * notification costs one period at most); the teardown stops all three.
 */
export const wakeReads = (
  reads: { wake(): void; stop(): void },
  hub: { listen(channel: string, key: string, wake: () => void): () => void },
  channel: string,
  key: string,
  pollMs: number,
): (() => void) => {
  const unlisten = hub.listen(channel, key, reads.wake)
  const timer = setInterval(reads.wake, pollMs)
  reads.wake()
  return () => {
    reads.stop()
    clearInterval(timer)
    unlisten()
  }
}
