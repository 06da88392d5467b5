/** A session log that cannot be opened as it is; the file was left untouched. */
export class SessionLogError extends Error {
  override readonly name = 'SessionLogError'
  constructor(
    readonly file: string,
    readonly line: number,
    detail: string,
  ) {
    super(`${file}:${line}: ${detail}; the file was left untouched (fix or move it, then open it again)`)
  }
}

/**
 * Another live writer holds the session log (one writer per file). `pid` is `NaN` when the
 * holder could not be told yet (it was still taking the lock).
 */
export class SessionLockedError extends Error {
  override readonly name = 'SessionLockedError'
  constructor(
    readonly file: string,
    readonly pid: number,
  ) {
    super(
      Number.isNaN(pid)
        ? `${file} is being opened for writing by another process; ` +
            'dispose that agent (or close its store) first, or try again in a moment'
        : `${file} is open for writing by process ${pid}; dispose that agent (or close its store) first`,
    )
  }
}

/**
 * The file system refused what a file store needed (a missing directory, a permission, a full
 * disk …). `path` is the session log's path; `cause` is the system error; the message says what
 * to do.
 */
export class SessionStoreError extends Error {
  override readonly name = 'SessionStoreError'
  /** The system error code (`EACCES`, `ENOENT` …), when there is one. */
  readonly code: string | undefined
  constructor(
    readonly path: string,
    message: string,
    cause?: unknown,
  ) {
    super(message, cause === undefined ? undefined : { cause })
    this.code = codeOf(cause)
  }
}

/** The system error code of `error` (`EACCES`, `ENOENT` …), if it has one. */
export const codeOf = (error: unknown): string | undefined => {
  try {
    const code = (error as { code?: unknown } | null)?.code
    return typeof code === 'string' ? code : undefined
  } catch {
    return undefined
  }
}
