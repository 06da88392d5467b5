import { existsSync, statSync, unlinkSync } from 'node:fs'
import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { type FileStore, fileStore, forkSession, InvalidInputError } from '../index.js'
import { errorText } from '../messages/errorText.js'

export const FORK_USAGE = `Usage: steerable fork FROM.jsonl TO.jsonl [--turn N]

Starts a new session from a saved one: copies the log of FROM.jsonl up to the end of turn N
(default: all of it) into TO.jsonl, a new file, and marks it as forked from FROM. What waited in
FROM's inbox is not copied, and FROM is only read. Continue the fork with
steerable --session TO.jsonl; its next turn is numbered after the copied ones.

Options:
  --turn N    fork at the end of turn N, a turn of FROM that ended
  -h, --help  show this help`

type Out = { write(text: string): unknown }

/**
 * `steerable fork`: returns the exit code (2: a bad command line, `--turn` included; 1: a file
 * that is missing, not empty, locked or unwritable). A fork that fails leaves no new file behind.
 */
export const runFork = async (argv: readonly string[], out: Out, err: Out): Promise<number> => {
  const usage = (problem: string): number => {
    err.write(`${problem}\n\n${FORK_USAGE}\n`)
    return 2
  }
  let parsed: { values: { turn?: string; help?: boolean }; positionals: string[] }
  try {
    parsed = parseArgs({
      args: [...argv],
      options: { turn: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
      strict: true,
    })
  } catch (error) {
    return usage(errorText(error))
  }
  const { values, positionals } = parsed
  if (values.help) {
    out.write(`${FORK_USAGE}\n`)
    return 0
  }
  const [fromPath, toPath] = positionals
  if (positionals.length !== 2 || fromPath === undefined || toPath === undefined)
    return usage(
      'steerable fork: give the session to fork and the new file: steerable fork FROM.jsonl TO.jsonl',
    )
  const atTurn = values.turn === undefined ? undefined : Number(values.turn)
  if (
    atTurn !== undefined &&
    !(/^\d+$/.test(values.turn ?? '') && Number.isSafeInteger(atTurn) && atTurn >= 1)
  )
    return usage(`--turn: expected a turn number (a whole number from 1), got ${values.turn}`)
  if (resolve(fromPath) === resolve(toPath))
    return usage(`steerable fork: FROM and TO are the same file; fork into a new file`)
  const failed = (text: string): number => {
    err.write(`steerable fork: ${text}\n`)
    return 1
  }
  if (!existsSync(fromPath))
    return failed(
      `${fromPath} does not exist: give the path of a saved session (steerable --session FILE writes one)`,
    )
  const toSize = existsSync(toPath) ? statSync(toPath).size : undefined
  if (toSize !== undefined && toSize > 0)
    return failed(`${toPath} already exists and is not empty: fork into a new file, or delete it first`)

  let from: FileStore
  try {
    from = fileStore(fromPath)
  } catch (error) {
    return failed(errorText(error))
  }
  for (const warning of from.warnings) err.write(`warning: ${warning}\n`)
  let to: FileStore
  try {
    to = fileStore(toPath)
  } catch (error) {
    closeQuietly(from)
    return failed(errorText(error))
  }
  try {
    const result = await forkSession(from, to, atTurn === undefined ? {} : { atTurn })
    out.write(
      `forked ${fromPath} at the end of turn ${result.atTurn} into ${toPath} (${result.copied} events)\n` +
        `continue it: steerable --session ${toPath}\n`,
    )
    return 0
  } catch (error) {
    // A refused fork leaves no new file: TO is removed when this command created it and nothing was written.
    const created = toSize === undefined
    closeQuietly(to)
    if (created && existsSync(toPath) && statSync(toPath).size === 0) unlinkSync(toPath)
    if (!(error instanceof InvalidInputError)) return failed(errorText(error))
    const issue = error.issues[0]
    const where =
      issue?.path[0] === 'from' ? fromPath : issue?.path[0] === 'to' ? toPath : `--turn ${values.turn}`
    return issue?.path[0] === 'options'
      ? usage(`${where}: ${issue.message}`)
      : failed(`${where}: ${issue?.message}`)
  } finally {
    closeQuietly(from)
    closeQuietly(to)
  }
}

/** Closes a store whose outcome is already reported; a second close does nothing. */
const closeQuietly = (store: FileStore): void => {
  try {
    store.close?.()
  } catch {
    // The failure that matters was reported; closing only releases the lock here.
  }
}
