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
