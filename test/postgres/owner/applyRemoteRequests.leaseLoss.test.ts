/**
 * R54 without a database: the feed of remote requests and the store's failure are watched side
 * by side, so a read of the journal that fails first (its connection ended with the lease's)
 * cannot take the lease-loss listener with it. The agent is released either way.
 */
import { filter, firstValueFrom, NEVER, Subject, throwError } from 'rxjs'
import { expect, it } from 'vitest'
import { createAgent } from '../../../src/index.js'
import { applyRemoteRequests, type PostgresSessionStore } from '../../../src/postgres.js'
import { scriptedModel } from '../../../src/testing.js'

const storeWith = (remoteRequests$: PostgresSessionStore['remoteRequests$']) => {
  const failed$ = new Subject<Error>()
  return { store: { remoteRequests$, failed$ } as unknown as PostgresSessionStore, failed$ }
}

it.each([
  ['the feed failed first', throwError(() => new Error('terminating connection'))],
  ['the feed still open', NEVER],
])('R54: a lost lease releases the agent (%s)', async (_name, feed) => {
  const agent = createAgent({ model: scriptedModel([{ hang: true }]) })
  const { store, failed$ } = storeWith(feed as PostgresSessionStore['remoteRequests$'])
  const told: unknown[] = []
  applyRemoteRequests(agent, store, { failed: (error) => told.push(error) })
  agent.followup('go')
  await firstValueFrom(agent.status$.pipe(filter((status) => status === 'running')))
  failed$.next(new Error('this process lost its lease'))
  await agent.whenIdle()
  expect(agent.status).toBe('idle')
  expect(() => agent.followup('late')).toThrow(/disposed/)
  expect(told.map(String)).toContain('Error: this process lost its lease')
})
