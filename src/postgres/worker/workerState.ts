/**
 * What a worker (`createWorker`) decides, as data: whether it is closed, whether a scan is
 * scheduled or under way, and the sessions it drives. Each transition returns the next state and
 * the effects its shell runs, in order: timers, a query for sessions with work, a session to
 * serve. What only grows, the journal row of each session it drove until quiet, stays in the
 * shell (a copy per session let go would cost as much as it holds): it arrives on the inputs as
 * facts, as ids and times do.
 */
export type WorkerState = {
  /** How many sessions it drives at once, and how often it scans when nothing wakes it. */
  readonly concurrency: number
  readonly pollMs: number
  readonly closed: boolean
  /** A scan is scheduled: its timer is set. */
  readonly timer: boolean
  /** No scan; one under way; one under way after which another is wanted at once. */
  readonly scan: 'idle' | 'scanning' | 'again'
  /** The sessions it drives or is taking, in the order it took them. */
  readonly driven: readonly string[]
}

export type WorkerEffect =
  | { readonly kind: 'set-timer'; readonly delay: number }
  | { readonly kind: 'clear-timer' }
  /** Read at most `limit` sessions with work from the database. */
  | { readonly kind: 'find'; readonly limit: number }
  | { readonly kind: 'serve'; readonly id: string; readonly inboxSeq: number }

export type WorkerInput =
  | { readonly type: 'started' }
  /** `remembered`: how many sessions it drove until quiet (they come back in a scan too). */
  | { readonly type: 'timer-fired'; readonly remembered: number }
  /**
   * One session the scan found, in the order found; `unchanged`: it drove the session until quiet
   * when the journal ended at this same row (a session that only holds parked or staged items is
   * found again and again: it is not opened again until its journal changes).
   */
  | { readonly type: 'found'; readonly id: string; readonly inboxSeq: number; readonly unchanged: boolean }
  /** The scan ended (what it found was handed over, or it failed). */
  | { readonly type: 'scan-done' }
  /** A session is let go; `quiet`: it was driven until quiet and released (not refused or failed). */
  | { readonly type: 'session-done'; readonly id: string; readonly quiet: boolean }
  /** A remote request was stored into `sessionId`. */
  | { readonly type: 'notified'; readonly sessionId: string }
  | { readonly type: 'close' }

export type WorkerStep = { readonly state: WorkerState; readonly effects: readonly WorkerEffect[] }

export const initialWorkerState = (concurrency: number, pollMs: number): WorkerState => ({
  concurrency,
  pollMs,
  closed: false,
  timer: false,
  scan: 'idle',
  driven: [],
})

const NONE: readonly WorkerEffect[] = Object.freeze([])
const only = (state: WorkerState): WorkerStep => ({ state, effects: NONE })

/** Schedules a scan in `delay` ms, unless closed or one is scheduled already. */
const schedule = (state: WorkerState, delay: number, effects: readonly WorkerEffect[] = NONE): WorkerStep =>
  state.closed || state.timer
    ? { state, effects }
    : { state: { ...state, timer: true }, effects: [...effects, { kind: 'set-timer', delay }] }

/** Scans now, not at the next poll; once at a time: a scan under way runs again after. */
const scanSoon = (state: WorkerState): WorkerStep => {
  if (state.closed) return only(state)
  if (state.scan !== 'idle') return only(state.scan === 'again' ? state : { ...state, scan: 'again' })
  if (!state.timer) return schedule(state, 0)
  return schedule({ ...state, timer: false }, 0, [{ kind: 'clear-timer' }])
}

/** The scan is over: the next one after `pollMs`, or at once when one was asked for meanwhile. */
const scanDone = (state: WorkerState): WorkerStep =>
  schedule({ ...state, scan: 'idle' }, state.scan === 'again' ? 0 : state.pollMs)

/** The state and effects after `input`; the same state object when it changes nothing. */
export const workerTransition = (state: WorkerState, input: WorkerInput): WorkerStep => {
  switch (input.type) {
    case 'started':
      return schedule(state, 0)
    case 'timer-fired': {
      if (state.closed) return only(state.timer ? { ...state, timer: false } : state)
      // A scan still under way (this timer was set meanwhile) runs on: its wish for another stays.
      const scanning: WorkerState = {
        ...state,
        timer: false,
        scan: state.scan === 'again' ? 'again' : 'scanning',
      }
      // A full worker asks for nothing: its sessions tell it when a slot frees up.
      if (state.driven.length >= state.concurrency) return scanDone(scanning)
      // Sessions it drives or found nothing in come back too: ask for enough to fill every slot.
      return { state: scanning, effects: [{ kind: 'find', limit: state.concurrency + input.remembered }] }
    }
    case 'found': {
      const { id, inboxSeq } = input
      if (state.closed || state.driven.length >= state.concurrency) return only(state)
      if (input.unchanged || state.driven.includes(id)) return only(state)
      return {
        state: { ...state, driven: [...state.driven, id] },
        effects: [{ kind: 'serve', id, inboxSeq }],
      }
    }
    case 'scan-done':
      return scanDone(state)
    case 'session-done': {
      // A full worker skipped sessions for want of a slot: one is free now, look at once (only
      // after driving: a session another process holds would otherwise be retried in a loop).
      const freed = input.quiet && state.driven.length >= state.concurrency
      const next = { ...state, driven: state.driven.filter((id) => id !== input.id) }
      return freed ? scanSoon(next) : schedule(next, 0)
    }
    case 'notified':
      // A session it drives hears its own requests; any other may be one to take.
      return state.driven.includes(input.sessionId) ? only(state) : scanSoon(state)
    case 'close':
      if (state.closed) return only(state)
      return {
        state: { ...state, closed: true, timer: false },
        effects: state.timer ? [{ kind: 'clear-timer' }] : NONE,
      }
  }
}
