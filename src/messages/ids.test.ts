import { isValid } from 'ulid'
import { describe, expect, it } from 'vitest'
import { createIdMinter } from './ids.js'

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
