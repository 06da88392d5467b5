import { decodeTime, encodeTime, incrementBase32, isValid, ULIDError } from 'ulid'
import { describe, expect, it } from 'vitest'
import { createIdMinter } from '../../src/messages/ids.js'

describe('createIdMinter', () => {
  it('mints valid ULIDs that sort in minting order, even within one millisecond', () => {
    const mint = createIdMinter(() => 1_700_000_000_000)
    const ids = Array.from({ length: 1000 }, mint)
    expect(ids.every(isValid)).toBe(true)
    expect(new Set(ids).size).toBe(ids.length)
    expect([...ids].sort()).toStrictEqual(ids)
  })

  it('stays monotonic when the clock goes backwards', () => {
    let now = 2_000_000_000_000
    const mint = createIdMinter(() => now)
    const first = mint()
    now -= 5000
    expect(mint() > first).toBe(true)
  })
})

describe('createIdMinter, against ulid', () => {
  it('within one millisecond, each random part is ulid incrementBase32 of the previous one', () => {
    const mint = createIdMinter(() => 1_700_000_000_000)
    let previous = mint()
    for (let i = 0; i < 5000; i++) {
      const next = mint()
      expect(next.slice(0, 10)).toBe(encodeTime(1_700_000_000_000, 10))
      expect(next.slice(10)).toBe(incrementBase32(previous.slice(10)))
      previous = next
    }
  })

  it('carries across Z digits like incrementBase32', () => {
    // 40,000 increments cross a one-digit carry every 32 ids and a two-digit one every 1,024.
    const mint = createIdMinter(() => 5)
    const ids = Array.from({ length: 40_000 }, mint)
    for (let i = 1; i < ids.length; i++)
      expect((ids[i] as string).slice(10)).toBe(incrementBase32((ids[i - 1] as string).slice(10)))
  })

  it('a later millisecond starts a fresh random part with the new time (decodeTime)', () => {
    let now = 1_000
    const mint = createIdMinter(() => now)
    mint()
    now = 2_000
    const id = mint()
    expect(decodeTime(id)).toBe(2_000)
    expect(isValid(id)).toBe(true)
  })

  it('mints flat strings of exactly 26 characters', () => {
    const id = createIdMinter()()
    expect(id).toHaveLength(26)
    expect(typeof id).toBe('string')
  })
})

describe('createIdMinter, edge cases', () => {
  it('at ZZZ…Z within one millisecond it throws like ulid and changes nothing; a later millisecond goes on', () => {
    let now = 1_000
    const mint = createIdMinter(
      () => now,
      () => 'ZZZZZZZZZZZZZZZZ',
    )
    const first = mint()
    expect(first.slice(10)).toBe('ZZZZZZZZZZZZZZZZ')
    expect(() => mint()).toThrow(ULIDError)
    expect(() => mint()).toThrow(ULIDError)
    now = 1_001
    const later = mint()
    expect(later > first).toBe(true)
    expect(decodeTime(later)).toBe(1_001)
  })

  it('a time encodeTime refuses throws and leaves the minter as it was', () => {
    let now = 5_000
    const mint = createIdMinter(
      () => now,
      () => '0000000000000000',
    )
    const first = mint()
    now = 7_000.5
    expect(() => mint()).toThrow(ULIDError)
    now = 5_000
    const next = mint()
    expect(next > first).toBe(true)
    expect(next.slice(0, 10)).toBe(first.slice(0, 10))
  })

  it('follows a virtual clock at 0 (ulid would take Date.now())', () => {
    const mint = createIdMinter(() => 0)
    expect(decodeTime(mint())).toBe(0)
  })
})
