import { map, timer } from 'rxjs'
import { z } from 'zod'
import { defineTool } from '../index.js'

/** How long the demo takes per streamed word and per tool call; tests make it short. */
export type DemoTimings = { readonly wordMs: number; readonly toolMs: number }

/** The demo's lookup tool: slow enough that a steer can arrive while it runs. */
export const notesTool = (timings: DemoTimings) =>
  defineTool({
    name: 'notes',
    description: 'Looks a topic up in the demo notes.',
    parameters: z.object({ topic: z.string() }),
    execute: ({ topic }) =>
      timer(timings.toolMs).pipe(
        map(() => `"${topic}" is a fine topic; steering lands between the steps of the running turn.`),
      ),
  })

/**
 * The demo's tool that needs approval (R61), so the app shows a pending call and its y/n prompt.
 * It only pretends: the demo must never touch the user's files, whatever the model asks.
 */
export const deleteFileTool = (timings: DemoTimings) =>
  defineTool({
    name: 'delete_file',
    description: 'Deletes a file (in the demo: pretends to; no file is touched).',
    parameters: z.object({ path: z.string() }),
    needsApproval: true,
    execute: ({ path }) =>
      timer(timings.toolMs).pipe(
        map(() => `"${path}" is deleted (a pretend delete: the demo touches no file).`),
      ),
  })

/** The demo model's tools. */
export const demoTools = (timings: DemoTimings) => [notesTool(timings), deleteFileTool(timings)]
