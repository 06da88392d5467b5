/**
 * R65: a remote decision as a journal row (`remoteDecide`, `checkRemoteEdit`, `editOf`; pure). The
 * client checks the call like the local `approve`/`deny`; a row read back is checked again the
 * same way, with exactly the keys it wrote, and a bad row names its number.
 */
import { describe, expect, it } from 'vitest'
import { InvalidInputError } from '../../../src/index.js'
import { checkRemoteEdit } from '../../../src/postgres/rows/pendingRemoteRequests.js'
import { editOf, isRemoteEditOp, remoteDecide } from '../../../src/postgres/rows/remoteEditRecord.js'

const row = (record: Record<string, unknown>) => ({ seq: 7, op: 'remote-decide', record })

describe('R65: remote decision rows', () => {
  it('R65, R62: approve and deny become frozen rows with a request id; the source is the user unless given', () => {
    const approve = remoteDecide('approved', 'c1', undefined)
    expect(approve).toEqual({
      op: 'remote-decide',
      request: expect.any(String),
      callId: 'c1',
      decision: 'approved',
      source: { kind: 'user' },
    })
    expect(Object.isFrozen(approve)).toBe(true)
    const source = { kind: 'plugin', plugin: 'reviewer' }
    const deny = remoteDecide('denied', 'c2', { reason: 'no', source })
    expect(deny).toMatchObject({ decision: 'denied', reason: 'no', source })
    expect(deny.request).not.toBe(approve.request)
    // The source is a copy: what the caller changes afterwards is not stored.
    source.plugin = 'changed'
    expect(deny).toMatchObject({ source: { plugin: 'reviewer' } })
    expect(isRemoteEditOp('remote-decide')).toBe(true)
    expect(editOf(deny)).toEqual({
      kind: 'decide',
      request: deny.request,
      callId: 'c2',
      decision: 'denied',
      reason: 'no',
      source: { kind: 'plugin', plugin: 'reviewer' },
    })
  })

  it('R65, R2: a bad call id or options throw InvalidInputError naming approve() or deny()', () => {
    expect(() => remoteDecide('approved', 7 as never, undefined)).toThrow(/^approve\(\): callId/)
    expect(() => remoteDecide('denied', 'c1', { reason: 1 })).toThrow(/^deny\(\): options\.reason/)
    expect(() => remoteDecide('denied', 'c1', { source: {} })).toThrow(InvalidInputError)
    expect(() => remoteDecide('denied', 'c1', 'no')).toThrow(InvalidInputError)
  })

  it('R65: a row read back passes with exactly the keys it wrote, with or without a reason', () => {
    for (const record of [
      remoteDecide('approved', 'c1', undefined),
      remoteDecide('denied', 'c1', { reason: 'r' }),
    ]) {
      const read = JSON.parse(JSON.stringify(record))
      expect(checkRemoteEdit('s', row(read))).toEqual(record)
    }
  })

  const good = JSON.parse(JSON.stringify(remoteDecide('denied', 'c1', { reason: 'r' })))
  const { reason: _, ...noReason } = good
  it.each([
    ['an unknown decision', { ...good, decision: 'maybe' }],
    ['no source', { ...noReason, source: undefined }],
    ['a source that is not one', { ...good, source: { kind: 7 } }],
    ['a reason that is not text', { ...good, reason: null }],
    ['a call id that is not text', { ...good, callId: 7 }],
    ['a key too many', { ...good, extra: 1 }],
    ['no request id', { ...good, request: '' }],
  ])('R65: a row with %s is a SessionStoreError naming the row', (_name, record) => {
    const value = JSON.parse(JSON.stringify(record))
    expect(() => checkRemoteEdit('s', row(value))).toThrow(/inbox journal row 7 is not a valid remote edit/)
  })
})
