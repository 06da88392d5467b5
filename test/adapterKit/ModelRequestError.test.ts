import { describe, expect, it } from 'vitest'
import { ModelRequestError } from '../../src/adapterKit/ModelRequestError.js'

/** A second, separate copy of the module, as another bundled entry point of the package holds. */
const loadCopy = async (): Promise<typeof ModelRequestError> => {
  const path = '../../src/adapterKit/ModelRequestError.ts?copy'
  const copy = (await import(/* @vite-ignore */ path)) as { ModelRequestError: typeof ModelRequestError }
  return copy.ModelRequestError
}

describe('ModelRequestError', () => {
  it('instanceof recognises an error made by another copy of the class (each entry point bundles its own)', async () => {
    const Copy = await loadCopy()
    expect(Copy).not.toBe(ModelRequestError)
    expect(new Copy('from the other bundle')).toBeInstanceOf(ModelRequestError)
    expect(new ModelRequestError('from this one')).toBeInstanceOf(Copy)
  })

  it('instanceof refuses other errors and values, a revoked Proxy included, without throwing', () => {
    const { proxy, revoke } = Proxy.revocable({}, {})
    revoke()
    for (const value of [
      new Error('x'),
      null,
      undefined,
      'ModelRequestError',
      { name: 'ModelRequestError' },
      proxy,
    ])
      expect(value instanceof ModelRequestError).toBe(false)
  })

  it('a subclass keeps the ordinary prototype check', () => {
    class Sub extends ModelRequestError {}
    expect(new Sub('x')).toBeInstanceOf(ModelRequestError)
    expect(new ModelRequestError('x') instanceof Sub).toBe(false)
  })

  it('R108/R117: retryable for 408, 409, 429 and 5xx by default, and as the adapter says otherwise', () => {
    const retryable = (status: number | undefined) => new ModelRequestError('x', { status }).retryable
    expect([408, 409, 429, 500, 502, 503, 599].map(retryable)).toStrictEqual(Array(7).fill(true))
    expect([200, 400, 401, 403, 404, 413, 422, 600, undefined].map(retryable)).toStrictEqual(
      Array(9).fill(false),
    )
    expect(new ModelRequestError('no answer', { retryable: true }).retryable).toBe(true)
    expect(new ModelRequestError('x', { status: 503, retryable: false }).retryable).toBe(false)
  })
})
