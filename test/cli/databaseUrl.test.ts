/**
 * Where the app keeps a session. A `--database-url` with the wrong scheme is refused before
 * anything connects, and the refusal
 * quotes it so the typo shows, but never its password: the message lands in terminals, CI logs
 * and bug reports.
 */
import { describe, expect, it } from 'vitest'
import { parseCliArgs } from '../../src/cli/args.js'
import { runMigrate } from '../../src/cli/migrateCommand.js'
import { InvalidInputError } from '../../src/index.js'

const migrateCli = async (url: string) => {
  let err = ''
  const code = await runMigrate(
    ['--database-url', url],
    {},
    { write: () => {} },
    { write: (t: string) => (err += t) },
  )
  return { code, err }
}

it.each([
  ['mysql://admin:s3cret-pw@db.internal:5432/app', 'mysql://[redacted]@db.internal:5432/app'],
  ['postgress://admin:s3cret-pw@db.internal/app', 'postgress://[redacted]@db.internal/app'],
  ['admin:s3cret-pw@db.internal/app', '[redacted]@db.internal/app'],
  ['mysql://db.internal/app?password=s3cret-pw', 'mysql://db.internal/app?password=[redacted]'],
])('a wrong-scheme URL %s is quoted without its password (exit 2)', async (url, shown) => {
  const { code, err } = await migrateCli(url)
  expect(code).toBe(2)
  expect(err).toContain(`expected a URL like postgres://user:password@host:5432/database, got "${shown}"`)
  expect(err).not.toContain('s3cret')
})

it('a URL with nothing secret in it is quoted as it is', async () => {
  const { code, err } = await migrateCli('localhost:5432')
  expect(code).toBe(2)
  expect(err).toContain('got "localhost:5432"')
})

describe('--session while DATABASE_URL is set', () => {
  const env = { DATABASE_URL: 'postgres://app@db.internal/app' }
  it('without --database-url a bare name is refused with both ways out, before anything is written', () => {
    expect(() => parseCliArgs(['--session', 'desk'], env)).toThrow(InvalidInputError)
    expect(() => parseCliArgs(['--session', 'desk'], env)).toThrow(
      /--session: DATABASE_URL is set: to keep desk in that database add --database-url "\$DATABASE_URL"; for a file, give a name ending in \.jsonl \(--session desk\.jsonl\)/,
    )
  })
  it('a name ending in .jsonl is a file; --database-url names the database; without DATABASE_URL a name is a file', () => {
    expect(parseCliArgs(['--session', 'desk.jsonl'], env)).toMatchObject({ session: 'desk.jsonl' })
    expect(parseCliArgs(['--session', 'desk.jsonl'], env).databaseUrl).toBeUndefined()
    expect(parseCliArgs(['--session', 'desk', '--database-url', env.DATABASE_URL], env)).toMatchObject({
      session: 'desk',
      databaseUrl: env.DATABASE_URL,
    })
    expect(parseCliArgs(['--session', 'desk'], {}).session).toBe('desk')
  })
})
