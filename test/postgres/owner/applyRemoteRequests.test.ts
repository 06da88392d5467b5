/** The public name of the owner's side of remote requests, and the name it had before. */
import { expect, it } from 'vitest'
import { applyRemoteRequests, applyRemoteSends } from '../../../src/postgres.js'

it('R55: applyRemoteSends, the deprecated name, is applyRemoteRequests', () => {
  expect(applyRemoteSends).toBe(applyRemoteRequests)
})
