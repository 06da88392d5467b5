/**
 * The summary the compaction crash child streams (test/support/children/crashCompactionChild.ts),
 * shared with its test, which checks that a reopened `compaction` event holds all of it.
 */
export const SUMMARY_PIECES = 6

/** Piece `j`: short, or about half a megabyte when the child is to tear the write that holds it. */
export const summaryPiece = (j: number, big: boolean): string =>
  `[summary part ${j + 1} of ${SUMMARY_PIECES}]${big ? ' lorem ipsum'.repeat(45_000) : ''} `

/** The whole summary text, as the `compaction` event must hold it. */
export const summaryText = (big: boolean): string =>
  Array.from({ length: SUMMARY_PIECES }, (_, j) => summaryPiece(j, big)).join('')
