import type { Marbles } from '../timeline/toMarbles.js'

const POOL = [...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789']

/**
 * The actual diagram in the expected one's letters: a label the expected legend has keeps its
 * letter there, so equal events read the same on both sides; a label it lacks gets a letter the
 * expected legend does not use, so no letter means two things side by side.
 */
export const relettered = (
  drawn: Marbles,
  expected: Readonly<Record<string, string>>,
): { diagram: string; values: Record<string, string> } => {
  const byLabel = new Map<string, string>()
  for (const [letter, value] of Object.entries(expected)) if (!byLabel.has(value)) byLabel.set(value, letter)
  const taken = new Set<string>()
  const free = () => POOL.find((c) => !taken.has(c) && !(c in expected)) ?? '?'
  const mapping = new Map<string, string>()
  const values: Record<string, string> = {}
  for (const [letter, value] of Object.entries(drawn.values)) {
    const own = byLabel.get(value)
    const chosen = own !== undefined && !taken.has(own) ? own : free()
    taken.add(chosen)
    mapping.set(letter, chosen)
    values[chosen] = value
  }
  // Time gaps (` 12ms `) are kept as they are: their digits are not letters.
  const diagram = drawn.timeline
    .split(/((?:^| )\d+ms )/)
    .map((part, i) => (i % 2 === 1 ? part : [...part].map((c) => mapping.get(c) ?? c).join('')))
    .join('')
  return { diagram, values }
}
