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

/** Another live writer holds the session log (one writer per file). */
export class SessionLockedError extends Error {
  override readonly name = 'SessionLockedError'
  constructor(
    readonly file: string,
    readonly pid: number,
  ) {
    super(`${file} is open for writing by process ${pid}; dispose that agent (or close its store) first`)
  }
}
