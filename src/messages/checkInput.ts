/**
 * The one way a check of caller input is written (R2): a call's checks record every problem they
 * find in one {@link InputCheck}, and `checkInput` throws them together as one
 * `InvalidInputError` naming the call, or returns what the checks made. Options, arguments,
 * decisions, commands of the page's API: each lists every problem at once, each unknown name says
 * which name was meant ({@link didYouMean}), and nothing is changed by a refused call.
 */
import type * as z from 'zod/mini'
import { type InputIssue, InvalidInputError } from '../contracts/errors.js'
import { didYouMean } from './didYouMean.js'
import { isRefusal } from './guarded.js'
import { safeParse } from './safeParse.js'
import { type Path, unreadable } from './snapshot.js'
import { toInputIssues } from './toInputIssues.js'

/**
 * What a value may be, as a function: the problem with `value` (the message of its issue, which
 * says what to pass instead), or `undefined` when it is fine. A rule for a nested value may record
 * issues of its own (deeper paths) through `check` and return `undefined`.
 */
export type FieldRule = (value: unknown, path: Path, check: InputCheck) => string | undefined

/** The rule of each field of an object, by key. */
export type FieldRules = Readonly<Record<string, FieldRule>>

/** The problems found so far in the input of one call. */
export class InputCheck {
  readonly call: string
  // Made on the first problem: a call whose input is fine allocates no list.
  #issues: InputIssue[] | undefined

  constructor(call: string) {
    this.call = call
  }

  /** Whether no problem was recorded. */
  get ok(): boolean {
    return this.#issues === undefined
  }

  /** The problems recorded so far (for a check that reports them instead of throwing). */
  get issues(): readonly InputIssue[] {
    return this.#issues ?? []
  }

  /** Records that what is at `path` is wrong; `message` says what to pass instead. */
  add(path: Path, message: string): void {
    this.#list().push({ path, message })
  }

  /** Records problems another check found (an `…Issues` function, a snapshot). */
  addAll(issues: readonly InputIssue[]): void {
    if (issues.length > 0) this.#list().push(...issues)
  }

  #list(): InputIssue[] {
    if (this.#issues === undefined) this.#issues = []
    return this.#issues
  }

  /** Records each own key of the object `value` that `known` lacks, with the key it likely meant. */
  knownKeys(value: object, known: readonly string[], path: Path, noun = 'option'): void {
    this.attempt(path, () => {
      for (const key of Object.keys(value))
        if (!known.includes(key)) this.add([...path, key], didYouMean(key, known, 'key', noun))
    })
  }

  /** Checks `value`, found at `path`, by `rule`. */
  field(value: unknown, path: Path, rule: FieldRule): void {
    this.attempt(path, () => {
      const problem = rule(value, path, this)
      if (problem !== undefined) this.add(path, problem)
    })
  }

  /** Each field of the object `value` that has a rule, checked by it (absent fields are `undefined`). */
  fields(value: object, path: Path, rules: FieldRules): void {
    for (const [key, rule] of Object.entries(rules)) {
      const at = [...path, key]
      this.attempt(at, () => this.field((value as Record<string, unknown>)[key], at, rule))
    }
  }

  /**
   * `value` parsed by `schema`: its data, or `undefined` with its problems recorded under `path`.
   * Reading the caller's value may run the caller's code (a getter, a Proxy trap), for the parse
   * and again to name the problems: what that throws is a problem at `path` too. `reword` may make
   * the messages of common mistakes show the right call (`withHints`).
   */
  parse<T>(
    schema: z.core.$ZodType<T>,
    value: unknown,
    path: Path,
    reword?: (issues: InputIssue[]) => InputIssue[],
  ): T | undefined {
    return this.attempt(path, () => {
      const result = safeParse(schema, value)
      if (result.success) return result.data
      const issues = toInputIssues(result.error, path, value, schema)
      this.addAll(reword ? reword(issues) : issues)
      return undefined
    })
  }

  /**
   * Runs a read of the caller's value, or a parser that throws its own `InvalidInputError`: what
   * it returns, or `undefined` with what it threw recorded (a refusal's problems, or a problem at
   * `path` for anything else), so the other checks still run and are listed too.
   */
  attempt<T>(path: Path, read: () => T): T | undefined {
    try {
      return read()
    } catch (error) {
      if (isRefusal(error)) this.addAll((error as InvalidInputError).issues)
      else this.add(path, unreadable(error))
      return undefined
    }
  }

  /** Throws one `InvalidInputError` listing every problem recorded, when there is one. */
  done(): void {
    if (this.#issues !== undefined) throw new InvalidInputError(this.call, this.#issues)
  }
}

/**
 * Runs the checks of `call`'s input: `checks` records the problems it finds in the check it is
 * handed and returns what the call goes on with. Throws `InvalidInputError` listing them all when
 * there is any (what `checks` returned is then dropped), else returns what `checks` returned.
 */
export const checkInput = <T>(call: string, checks: (check: InputCheck) => T): T => {
  const check = new InputCheck(call)
  const checked = checks(check)
  check.done()
  return checked
}
