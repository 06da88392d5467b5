/**
 * A `--database-url` with the wrong scheme is refused before anything connects, and the refusal
 * quotes it so the typo shows, but never its password: the message lands in terminals, CI logs
 * and bug reports.
 */
import { expect, it } from 'vitest'
import { runMigrate } from '../../src/cli/migrateCommand.js'

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
