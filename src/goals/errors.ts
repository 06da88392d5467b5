/** A goal event that does not decode (R33) or does not fold (R34); names the event's `seq`. */
export class GoalEventError extends Error {
  override readonly name = 'GoalEventError'
  constructor(
    readonly seq: number,
    detail: string,
  ) {
    super(`event seq ${seq}: ${detail}`)
  }
}

/** A goal mutation that does not apply to the goal's current phase (e.g. `pause()` with no goal). */
export class GoalStateError extends Error {
  override readonly name = 'GoalStateError'
}

/** A compare-and-set edit whose expected revision is stale (R32). */
export class GoalRevisionConflict extends Error {
  override readonly name = 'GoalRevisionConflict'
  constructor(
    readonly expected: number,
    readonly actual: number,
  ) {
    super(
      `edit(): expected revision ${expected}, but the goal is at revision ${actual}; read view() and retry`,
    )
  }
}

/**
 * The `continuation` option threw, or returned text `followup` refuses, for round `round`. The
 * controller blocked the goal with code `continuation-failed` instead of queueing the round;
 * `resume()` tries again. `cause` is what was thrown.
 */
export class GoalContinuationError extends Error {
  override readonly name = 'GoalContinuationError'
  constructor(
    readonly round: number,
    cause: unknown,
  ) {
    super(
      `continuation(goal, ${round}) failed: ${describeThrown(cause)}; ` +
        "the goal is blocked with code 'continuation-failed', and resume() tries again",
      { cause },
    )
  }
}

/**
 * A one-line description of any thrown value, itself never throwing (a revoked Proxy, an
 * `Object.create(null)`, an Error whose `message` getter throws).
 */
export const describeThrown = (value: unknown): string => {
  try {
    if (value instanceof Error) return `${value.name}: ${value.message}`
    return typeof value === 'string' ? value : String(value)
  } catch {
    return 'a value that cannot be read'
  }
}
