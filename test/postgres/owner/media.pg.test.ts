/**
 * R86 on PostgreSQL: images and files survive a checkpoint and a reopen exactly; a remote send
 * carries them through the journal, and the owner checks them against its own `maxBlockBytes`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createAgent, InvalidInputError } from '../../../src/index.js'
import { applyRemoteRequests, connectSessions, migrate, openPostgresSession } from '../../../src/postgres.js'
import { scriptedModel } from '../../../src/testing.js'
import { blocks, runMediaSession } from '../../support/mediaSession.js'
import { createTestDatabase, type TestDatabase } from '../../support/testDatabase.js'

let db: TestDatabase
beforeAll(async () => {
  db = await createTestDatabase()
  await migrate(db.pool)
})
afterAll(() => db.drop())

const owned = async (sessionId: string) => {
  const store = await openPostgresSession(db.pool, sessionId, { pollMs: 100 })
  await store.takeLease()
  return store
}

describe('R86: the PostgreSQL store keeps images and files', () => {
  it('R86: a reopened session holds every image and file block exactly, and sends them to the model again', async () => {
    const store = await owned('media')
    const first = await runMediaSession(store)
    await store.release()
    expect((await openPostgresSession(db.pool, 'media')).load()).toEqual(first.session.events)

    const model = scriptedModel(['again'])
    const again = await owned('media')
    const second = createAgent({ model, store: again })
    expect(second.session.messages()).toEqual(first.session.messages())
    second.followup('go on')
    await second.whenIdle()
    expect(model.requests[0]?.messages.slice(0, -1)).toEqual(first.session.messages())
    await second.dispose()
    await again.release()
  })

  it('R86: a remote followup with an image is stored exactly, and refused by an owner whose maxBlockBytes it exceeds', async () => {
    const client = connectSessions(db.pool, { pollMs: 100 })
    const remote = client.session('remote-media')
    const content = blocks.slice(0, 2)
    const kept = await remote.followup({ content, source: { kind: 'user' } })
    const { rows } = await db.pool.query('SELECT record FROM steerable_inbox WHERE message_id = $1', [kept])
    expect(rows[0].record.message.content).toEqual(content)
    // Over the default limit: the client refuses it at once.
    const huge = { type: 'image', mediaType: 'image/png', data: 'A'.repeat(28 * 1024 * 1024) } as const
    expect(() => remote.followup({ content: [huge], source: { kind: 'user' } })).toThrow(InvalidInputError)

    const store = await owned('remote-media')
    // PNG is 68 bytes: this owner takes none of it.
    const agent = createAgent({ model: scriptedModel(['seen']), store, maxBlockBytes: 67 })
    const feed = applyRemoteRequests(agent, store)
    expect(await remote.outcome(kept)).toMatchObject({
      kind: 'refused',
      error: { name: 'InvalidInputError', message: expect.stringContaining('over maxBlockBytes (67)') },
    })
    feed.unsubscribe()
    await agent.dispose()
    await store.release()
    await client.close()
  })
})
