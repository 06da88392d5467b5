/**
 * R71: a remote tool call's cancel as a journal row (`remoteCancelToolCall`, `checkRemoteEdit`,
 * `editOf`; pure). The client checks the call like the local `cancelToolCall`; a row read back is
 * checked again the same way, with exactly the keys it wrote, and a bad row names its number.
 */
import { describe, expect, it } from 'vitest'
import { InvalidInputError } from '../../../src/index.js'
import { checkRemoteEdit } from '../../../src/postgres/rows/pendingRemoteRequests.js'
import { editOf, isRemoteEditOp, remoteCancelToolCall } from '../../../src/postgres/rows/remoteEditRecord.js'

const row = (record: Record<string, unknown>) => ({ seq: 7, op: 'remote-cancel-call', record })

describe('R71: remote tool call cancel rows', () => {
  it('R71: a cancel becomes a frozen row with a request id, with the reason when one is given', () => {
    const plain = remoteCancelToolCall('c1', undefined)
    expect(plain).toEqual({ op: 'remote-cancel-call', request: expect.any(String), callId: 'c1' })
    expect(Object.isFrozen(plain)).toBe(true)
    const reasoned = remoteCancelToolCall('c2', { reason: 'too slow' })
    expect(reasoned).toMatchObject({ callId: 'c2', reason: 'too slow' })
    expect(reasoned.request).not.toBe(plain.request)
    expect(isRemoteEditOp('remote-cancel-call')).toBe(true)
    expect(editOf(plain)).toEqual({ kind: 'cancel-call', request: plain.request, callId: 'c1' })
    expect(editOf(reasoned)).toEqual({
      kind: 'cancel-call',
      request: reasoned.request,
      callId: 'c2',
      reason: 'too slow',
    })
  })

  it('R71, R2: a bad call id or options throw InvalidInputError naming cancelToolCall()', () => {
    expect(() => remoteCancelToolCall(7 as never, undefined)).toThrow(/^cancelToolCall\(\): callId/)
    expect(() => remoteCancelToolCall(7, undefined)).toThrow(InvalidInputError)
    expect(() => remoteCancelToolCall('c1', { reason: 1 })).toThrow(/^cancelToolCall\(\): options\.reason/)
    expect(() => remoteCancelToolCall('c1', { why: 'x' })).toThrow(InvalidInputError)
    expect(() => remoteCancelToolCall('c1', 'no')).toThrow(InvalidInputError)
  })

  it('R71: a row read back passes with exactly the keys it wrote, with or without a reason', () => {
    for (const record of [
      remoteCancelToolCall('c1', undefined),
      remoteCancelToolCall('c1', { reason: 'r' }),
    ]) {
      const read = JSON.parse(JSON.stringify(record))
      expect(checkRemoteEdit('s', row(read))).toEqual(record)
    }
  })

  const good = JSON.parse(JSON.stringify(remoteCancelToolCall('c1', { reason: 'r' })))
  it.each([
    ['a reason that is not text', { ...good, reason: null }],
    ['a call id that is not text', { ...good, callId: 7 }],
    ['no call id', { ...good, callId: undefined }],
    ['a key too many', { ...good, extra: 1 }],
    ['no request id', { ...good, request: '' }],
  ])('R71: a row with %s is a SessionStoreError naming the row', (_name, record) => {
    const value = JSON.parse(JSON.stringify(record))
    expect(() => checkRemoteEdit('s', row(value))).toThrow(/inbox journal row 7 is not a valid remote edit/)
  })
})
