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
