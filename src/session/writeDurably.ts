import { close, closeSync, fsync, fsyncSync, open, openSync, write, writeSync } from 'node:fs'

/**
 * Writes `data` at `position` of the file open at `fd`, looping over partial writes, then fsyncs;
 * `done` gets the first error, or `null` once the bytes are durable. Asynchronous (callbacks, no
 * Promise), so a store's `flush()` can wrap it in an Observable.
 */
export const writeDurably = (
  fd: number,
  data: Buffer,
  position: number,
  done: (error: Error | null) => void,
): void => {
  const from = (offset: number) => {
    if (offset === data.length) return fsync(fd, done)
    write(fd, data, offset, data.length - offset, position + offset, (error, written) =>
      error ? done(error) : from(offset + written),
    )
  }
  from(0)
}

/** `writeDurably`'s synchronous twin, for `close()`: throws the first error. */
export const writeDurablySync = (fd: number, data: Buffer, position: number): void => {
  for (let offset = 0; offset < data.length; )
    offset += writeSync(fd, data, offset, data.length - offset, position + offset)
  fsyncSync(fd)
}

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
 * `writeDurably` on the file at `path`, opened for this write only and closed after it: an open
 * session that is idle holds no file descriptor, so a process can keep more sessions open than
 * its open-file limit. `flags` without `O_CREAT` makes a file that vanished an error, never a new
 * file with a hole where its start was.
 */
export const writeFileDurably = (
  path: string,
  flags: number,
  data: Buffer,
  position: number,
  done: (error: Error | null) => void,
): void =>
  open(path, flags, 0o666, (error, fd) => {
    if (error) return done(error)
    writeDurably(fd, data, position, (failure) =>
      close(fd, (closeError) => done(failure ?? closeError ?? null)),
    )
  })

/** `writeFileDurably`'s synchronous twin, for `close()`: throws the first error. */
export const writeFileDurablySync = (path: string, flags: number, data: Buffer, position: number): void => {
  const fd = openSync(path, flags, 0o666)
  try {
    writeDurablySync(fd, data, position)
  } finally {
    closeSync(fd)
  }
}
