import { close, closeSync, fsync, fsyncSync, open, openSync, write, writeSync } from 'node:fs'

/**
 * Makes the directory's entries (a created or renamed file) durable. Windows cannot open a
 * directory as a file (nor fsync one from Node); its file system journals the names itself.
 */
export const syncDirectory = (dir: string): void => {
  if (process.platform === 'win32') return
  const fd = openSync(dir, 'r')
  try {
    fsyncSync(fd)
  } finally {
    closeSync(fd)
  }
}

/** `syncDirectory`, asynchronously: `done` gets the first error, or `null`. */
export const syncDirectoryAsync = (dir: string, done: (error: Error | null) => void): void => {
  if (process.platform === 'win32') return done(null)
  open(dir, 'r', (error, fd) => {
    if (error) return done(error)
    fsync(fd, (failure) => close(fd, (closeError) => done(failure ?? closeError ?? null)))
  })
}

/**
 * The text `pieces`, in order, at `position` of the file at `path`, then fsynced: the file is
 * opened for this write only and closed after, so an open session that is idle holds no file
 * descriptor (a process can keep more sessions open than its open-file limit). `flags` without
 * `O_CREAT` makes a file that vanished an error, never a new file with a hole where its start
 * was. Each piece becomes a buffer only when its turn comes. `done` gets the first error, or the
 * bytes written.
 */
export const writeFileDurably = (
  path: string,
  flags: number,
  pieces: readonly string[],
  position: number,
  done: (error: Error | null, bytes: number) => void,
): void =>
  open(path, flags, 0o666, (error, fd) => {
    if (error) return done(error, 0)
    const finish = (failure: Error | null, bytes: number) =>
      close(fd, (closeError) => done(failure ?? closeError ?? null, bytes))
    const piece = (index: number, at: number) => {
      if (index === pieces.length) return fsync(fd, (failure) => finish(failure, at - position))
      const data = Buffer.from(pieces[index] as string)
      writeAll(fd, data, at, (failure) => (failure ? finish(failure, 0) : piece(index + 1, at + data.length)))
    }
    piece(0, position)
  })

/** `writeFileDurably`'s synchronous twin, for `close()`: throws the first error; returns the bytes. */
export const writeFileDurablySync = (
  path: string,
  flags: number,
  pieces: readonly string[],
  position: number,
): number => {
  const fd = openSync(path, flags, 0o666)
  try {
    let at = position
    for (const text of pieces) {
      const data = Buffer.from(text)
      for (let offset = 0; offset < data.length; )
        offset += writeSync(fd, data, offset, data.length - offset, at + offset)
      at += data.length
    }
    fsyncSync(fd)
    return at - position
  } finally {
    closeSync(fd)
  }
}

/** All of `data` at `position`, looping over partial writes. */
const writeAll = (fd: number, data: Buffer, position: number, done: (error: Error | null) => void): void => {
  const from = (offset: number) => {
    if (offset === data.length) return done(null)
    write(fd, data, offset, data.length - offset, position + offset, (error, written) =>
      error ? done(error) : from(offset + written),
    )
  }
  from(0)
}
