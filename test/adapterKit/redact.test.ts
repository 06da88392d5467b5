import { describe, expect, it } from 'vitest'
import { environmentSecrets, quote, redact, secretsOf } from '../../src/adapterKit/redact.js'
import { redactCause } from '../../src/adapterKit/redactCause.js'

describe('secretsOf', () => {
  it('takes the key, the credentials of credential headers and the URL userinfo; longest first', () => {
    const secrets = secretsOf(
      'sk-1',
      { authorization: 'Bearer tok-22', 'x-api-key': 'k"33', 'x-trace': 'trace-id' },
      'http://u:p%40ss@h/v1/chat/completions',
    )
    // As sent, JSON-escaped and URL-encoded; `x-trace` is no credential.
    expect(new Set(secrets)).toEqual(
      new Set([
        ...['sk-1', 'tok-22', 'k"33', 'k\\"33', 'k%2233'],
        ...['u:p%40ss', 'u:p@ss', 'u%3Ap%2540ss', 'u%3Ap%40ss'],
        ...['p%40ss', 'p@ss', 'p%2540ss'],
      ]),
    )
    expect(secrets.map((s) => s.length)).toEqual(secrets.map((s) => s.length).sort((a, b) => b - a))
  })

  it('has none without a key or credential headers', () => {
    expect(secretsOf(undefined, { 'content-type': 'application/json' }, 'http://h/v1')).toEqual([])
    expect(secretsOf('', {}, 'http://h/v1')).toEqual([])
  })
})

describe('quote', () => {
  it('redacts every occurrence, then cuts and counts the bytes cut', () => {
    expect(redact('a sk-1 b sk-1', ['sk-1'])).toBe('a [redacted] b [redacted]')
    expect(quote('sk-1 é…', ['sk-1'], 100)).toBe('[redacted] é…')
    expect(quote('abcdé', [], 3)).toBe('abc… [3 more bytes cut]')
    expect(quote('abc', [], 3, { bytes: 10, exact: true })).toBe('abc… [10 more bytes cut]')
    expect(quote('abcd', [], 3, { bytes: 10, exact: false })).toBe('abc… [at least 11 more bytes cut]')
  })
})

describe('redactCause', () => {
  it('keeps a clean error as it is, copies a chain that holds a secret with the same prototype', () => {
    const clean = new TypeError('fetch failed', { cause: new Error('ECONNREFUSED') })
    expect(redactCause(clean, ['sk-1'])).toBe(clean)
    const dirty = new TypeError('fetch failed', {
      cause: Object.assign(new Error('saw sk-1'), { code: 'E' }),
    })
    const copy = redactCause(dirty, ['sk-1']) as TypeError
    expect(copy).toBeInstanceOf(TypeError)
    expect(copy.message).toBe('fetch failed')
    expect(copy.cause).toMatchObject({ message: 'saw [redacted]', code: 'E' })
    expect(redactCause('plain sk-1', ['sk-1'])).toBe('plain [redacted]')
  })

  it('keeps a value it cannot read', () => {
    const { proxy, revoke } = Proxy.revocable({}, {})
    revoke()
    expect(redactCause(proxy, ['sk-1'])).toBe(proxy)
    expect(redactCause(null, ['sk-1'])).toBe(null)
  })

  it('keeps clean data as it is, and replaces data that holds a secret by a copy of its redacted JSON', () => {
    const clean = { type: 'overloaded_error', message: 'Overloaded' }
    expect(redactCause(clean, ['sk-1'])).toBe(clean)
    const dirty = { type: 'authentication_error', message: 'invalid key sk-1', nested: ['sk-1'] }
    expect(redactCause(dirty, ['sk-1'])).toEqual({
      type: 'authentication_error',
      message: 'invalid key [redacted]',
      nested: ['[redacted]'],
    })
    const cyclic: Record<string, unknown> = {}
    cyclic.self = cyclic
    expect(redactCause(cyclic, ['sk-1'])).toBeUndefined()
  })
})

describe('environmentSecrets', () => {
  it('takes the values of variables named like credentials, 8 characters or more', () => {
    const env = {
      ANTHROPIC_API_KEY: 'sk-ant-0123456789',
      HF_TOKEN: ' hf_abcdefgh ',
      AWS_SECRET_ACCESS_KEY: 'short',
      HOME: '/root/with/a/long/path',
      DB_PASSWORD: 'correct horse',
      UNSET_KEY: undefined,
    }
    expect(environmentSecrets(env)).toEqual(['sk-ant-0123456789', 'hf_abcdefgh', 'correct horse'])
  })
})
