/**
 * Waiting for what another process or a real server does: polls `condition` until it holds.
 * The deadline is generous and named (a loaded 2-core machine can stall a process for seconds):
 * it exists only so a broken run fails with a message naming what never happened.
 */
export const UNTIL_DEADLINE_MS = 40_000

export const until = async (
  condition: () => boolean | Promise<boolean>,
  what: string,
  { deadlineMs = UNTIL_DEADLINE_MS, everyMs = 20 }: { deadlineMs?: number; everyMs?: number } = {},
): Promise<void> => {
  const deadline = Date.now() + deadlineMs
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${deadlineMs} ms waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, everyMs))
  }
}
