/**
 * The owner's side of sends minted in another process (R55), for a store integration that
 * carries sends between processes (`steerable/postgres`). Not part of the public API.
 */

/** A send minted in another process, as the owner reads it back (from a database row, say). */
export type RemoteSend = {
  readonly id: string
  readonly input: unknown
  readonly options: unknown
}

/** What became of a remote send when the owner applied it. */
export type RemoteApplied =
  /** It entered the pipeline, routed by this agent's window now (R4, R55). */
  | 'accepted'
  /** Its input, options or this agent's policy refused it: it settled `refused` (R55). */
  | 'refused'
  /** This agent already holds, delivered or settled that id: applied once only. */
  | 'known'
  /** The agent stopped accepting (disposed): the send is left for the next owner. */
  | 'stopped'

/**
 * An inbox control (R43–R46) or a cancel (R25, R26) requested by another process (R55, R58), as
 * the owner reads it back. The owner applies it through its own operation, with the semantics of
 * the moment it applies it: an item that is no longer waiting is left alone.
 */
export type RemoteEdit =
  | { readonly kind: 'remove'; readonly id: string }
  | { readonly kind: 'replace'; readonly id: string; readonly input: unknown }
  | { readonly kind: 'move'; readonly id: string; readonly index: number }
  | { readonly kind: 'promote'; readonly id: string }
  | { readonly kind: 'cancel'; readonly cause: unknown; readonly options: unknown }
  /**
   * `approve` or `deny` from another process (R62, R65). `request` is the id of the request: a
   * decision for a call that is not pending settles under it, refused (R65).
   */
  | {
      readonly kind: 'decide'
      readonly request: string
      readonly callId: string
      readonly decision: 'approved' | 'denied'
      readonly reason?: string
      readonly source: unknown
    }
  /**
   * `cancelToolCall` from another process (R71): `request` is the id of the request: a call that
   * is not running (or waiting for approval) then settles it refused, as the local call returns
   * `false`.
   */
  | {
      readonly kind: 'cancel-call'
      readonly request: string
      readonly callId: string
      readonly reason?: string
    }
  /**
   * `rollback(turns)` from another process (R77), applied when the agent is idle. `request` is the
   * id of the request: more turns than the messages hold then settles it refused.
   */
  | { readonly kind: 'rollback'; readonly request: string; readonly turns: number }

/**
 * What became of a remote edit: applied (whatever it then did); `refused`: a decision for a call
 * that was not pending (R65), a cancel of a call that was not running (R71), or a rollback of more
 * turns than there were (R77), settled refused under its request id; `busy`: a rollback that met
 * work (a turn, an admission, a waking prompt), not applied, to be applied again once the agent is
 * idle; or left for the next owner.
 */
export type RemoteEditApplied = 'applied' | 'refused' | 'busy' | 'stopped'
