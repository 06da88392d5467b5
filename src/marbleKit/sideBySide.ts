import type { DiagramValue } from './parseDiagram.js'

/** One lane as it was expected or as it went: its diagram and the legend of its letters. */
export type DrawnLane = {
  readonly diagram: string
  readonly values: Readonly<Record<string, string>>
}

/** What a letter means: its value, or the letter itself when the legend has none (as in RxJS). */
export const meaning = (values: Readonly<Record<string, string>>, letter: string): string =>
  letter === '|' ? '(complete)' : letter === '#' ? '(error)' : (values[letter] ?? letter)

/** The letters of a diagram in the order they first appear, with their values. */
const legend = (lane: DrawnLane, parsed: readonly DiagramValue[]): string[] => {
  const seen = [...new Set(parsed.map((v) => v.letter))]
  return seen.map((letter) => `${letter}: ${meaning(lane.values, letter)}`)
}

/** Where the two first part: the frame and what each side has there. */
export const firstDifference = (
  expected: readonly { frame: number; label: string }[],
  actual: readonly { frame: number; label: string }[],
): string => {
  for (let i = 0; i < Math.max(expected.length, actual.length); i++) {
    const e = expected[i]
    const a = actual[i]
    if (e && a && e.frame === a.frame && e.label === a.label) continue
    const want = e ? `${e.label} at frame ${e.frame}` : 'nothing more'
    const got = a ? `${a.label} at frame ${a.frame}` : 'nothing more'
    return `value ${i + 1}: expected ${want}, got ${got}`
  }
  return 'none'
}

/**
 * Two lanes in two columns, expected on the left and actual on the right: each diagram quoted
 * (spaces count), then its legend. Two diagrams one beside the other read at a glance, where the
 * frame-by-frame JSON of a deep-equal assertion needs scrolling to find the one moved frame.
 */
export const sideBySide = (
  expected: DrawnLane & { readonly parsed: readonly DiagramValue[] },
  actual: DrawnLane & { readonly parsed: readonly DiagramValue[] },
): string => {
  const left = ['expected', `'${expected.diagram}'`, ...legend(expected, expected.parsed)]
  const right = ['actual', `'${actual.diagram}'`, ...legend(actual, actual.parsed)]
  const width = Math.max(...left.map((line) => line.length))
  return Array.from({ length: Math.max(left.length, right.length) }, (_, i) =>
    `  ${(left[i] ?? '').padEnd(width)}  │ ${right[i] ?? ''}`.trimEnd(),
  ).join('\n')
}
