/**
 * R77: a remote rollback as a journal row (`remoteRollback`, `checkRemoteEdit`, `editOf`; pure).
 * The client checks the count like the local `rollback`; a row read back is checked again the
 * same way, with exactly the keys it wrote, and a bad row names its number.
 */
import { describe, expect, it } from 'vitest'
import { InvalidInputError } from '../../../src/index.js'
import { checkRemoteEdit } from '../../../src/postgres/rows/pendingRemoteRequests.js'
import { editOf, isRemoteEditOp, remoteRollback } from '../../../src/postgres/rows/remoteEditRecord.js'

const row = (record: Record<string, unknown>) => ({ seq: 7, op: 'remote-rollback', record })

describe('R77: remote rollback rows', () => {
  it('R77: a rollback becomes a frozen row with a request id, read back as it was written', () => {
    const record = remoteRollback(2)
    expect(record).toEqual({ op: 'remote-rollback', request: expect.any(String), turns: 2 })
    expect(Object.isFrozen(record)).toBe(true)
    expect(remoteRollback(2).request).not.toBe(record.request)
    expect(isRemoteEditOp('remote-rollback')).toBe(true)
    expect(editOf(record)).toEqual({ kind: 'rollback', request: record.request, turns: 2 })
    expect(checkRemoteEdit('s', row(JSON.parse(JSON.stringify(record))))).toEqual(record)
  })

  it.each([[0], [-2], [2.5], [Number.NaN], ['2'], [null]])(
    'R77, R2: rollback(%j) throws InvalidInputError naming rollback()',
    (turns) => {
      expect(() => remoteRollback(turns)).toThrow(InvalidInputError)
      expect(() => remoteRollback(turns)).toThrow(/^rollback\(\): turns:/)
    },
  )

  const good = JSON.parse(JSON.stringify(remoteRollback(1)))
  it.each([
    ['a count of 0', { ...good, turns: 0 }],
    ['a count that is text', { ...good, turns: '1' }],
    ['no count', { ...good, turns: undefined }],
    ['a key too many', { ...good, extra: 1 }],
    ['no request id', { ...good, request: '' }],
  ])('R77: a row with %s is a SessionStoreError naming the row', (_name, record) => {
    const value = JSON.parse(JSON.stringify(record))
    expect(() => checkRemoteEdit('s', row(value))).toThrow(/inbox journal row 7 is not a valid remote edit/)
  })
})
