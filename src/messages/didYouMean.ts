/**
 * The message for a name the callee does not know (an option, a hook, a key of a block, a command
 * of the page's API): the known name the caller most likely meant, else every known name, so the
 * message always says what to write instead. Every check that refuses an unknown name says it
 * through this one function.
 *
 * @param what What the names are, for the message: `key` (the default), `command` …
 * @param noun What one known name is, when there is only one: "the only option is keepInbox".
 */
export const didYouMean = (name: string, known: readonly string[], what = 'key', noun = what): string => {
  const close = closest(name, known)
  if (close !== undefined) return `unknown ${what}; did you mean ${close}?`
  if (known.length === 0) return `unknown ${what}; there are none here`
  if (known.length === 1) return `unknown ${what}; the only ${noun} is ${known[0]}`
  return `unknown ${what}; expected one of ${known.join(', ')}`
}

/** Names at most this far from a known one (in edits, case ignored) are taken for a typo of it. */
const MAX_TYPO_DISTANCE = 2

/**
 * The known name nearest to `name`, when it is near enough: a name that differs only in case first
 * (`Concurrency` for `concurrency`), then the first within {@link MAX_TYPO_DISTANCE} edits. A short
 * name is not near everything: `id` is not a typo of `ifBusy`, since most of it would change.
 */
const closest = (name: string, known: readonly string[]): string | undefined => {
  const lower = name.toLowerCase()
  const sameLetters = known.find((k) => k.toLowerCase() === lower)
  if (sameLetters !== undefined) return sameLetters
  let best: string | undefined
  let bestDistance = MAX_TYPO_DISTANCE + 1
  for (const k of known) {
    const d = distance(k.toLowerCase(), lower)
    if (d < bestDistance && d < Math.max(k.length, name.length) / 2) {
      best = k
      bestDistance = d
    }
  }
  return best
}

/** Levenshtein distance of two short strings. */
const distance = (a: string, b: string): number => {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const next = [i]
    for (let j = 1; j <= b.length; j++)
      next[j] = Math.min(
        (row[j] as number) + 1,
        (next[j - 1] as number) + 1,
        (row[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1),
      )
    row = next
  }
  return row[b.length] as number
}
