import { describe, expect, it } from 'vitest'
import { redact, redactURL, secretForms } from '../../src/adapterKit/redact.js'
import { urlSecrets } from '../../src/adapterKit/urlSecrets.js'

describe('urlSecrets', () => {
  it.each([
    ['no credentials', 'https://api.example.com/v1/chat/completions', []],
    ['user and password', 'https://me:p%40ss@h/v1', ['me:p%40ss', 'me:p@ss', 'p%40ss', 'p@ss']],
    ['a token as the user name', 'https://tok3n@h/v1', ['tok3n']],
    [
      'a credential parameter and the whole query',
      'https://h/v1/x?api-version=2024&api-key=k%2B1',
      ['k%2B1', 'k+1', 'api-version=2024&api-key=k%2B1'],
    ],
    ['sig and code, but not v', 'https://h/x?v=1&sig=s1&code=c1#frag', ['s1', 'c1', 'v=1&sig=s1&code=c1']],
    ['a query without values', 'https://h/x?debug', []],
    ['a URL that URL cannot parse', 'http://u:pw@[bad/v1?token=t0', ['u:pw', 'pw', 't0', 'token=t0']],
  ])('%s', (_what, url, secrets) => {
    expect(urlSecrets(url)).toEqual(secrets)
  })
})

describe('redactURL', () => {
  it.each([
    ['https://api.example.com/v1/chat/completions', 'https://api.example.com/v1/chat/completions'],
    ['https://me:pw@h/v1', 'https://[redacted]@h/v1'],
    [
      'https://tok@h/v1?api-version=2024&key=k1&flag=&debug',
      'https://[redacted]@h/v1?api-version=[redacted]&key=[redacted]&flag=&debug',
    ],
    ['https://h/v1?key=k1#frag?x=1', 'https://h/v1?key=[redacted]#frag?x=1'],
    ['https://h/v1/a@b', 'https://h/v1/a@b'],
  ])('%s shows as %s', (url, shown) => {
    expect(redactURL(url)).toBe(shown)
  })

  it('an echo of the full URL loses its whole query, whatever the parameters are called', () => {
    const url = 'https://h/v1/chat/completions?deployment=d1&code=c0de'
    expect(redact(`Cannot POST ${url}`, secretForms(urlSecrets(url)))).toBe(
      'Cannot POST https://h/v1/chat/completions?[redacted]',
    )
  })
})
