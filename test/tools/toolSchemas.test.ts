/**
 * R21b: a tool's parameters are any Standard Schema, whatever library and copy made them: the
 * arguments are checked through `~standard.validate`, and the model sees the schema's own JSON
 * Schema (Standard JSON Schema), or, for a zod 4 release before 4.2, what `z.toJSONSchema` gives.
 * Nothing relies on `instanceof`, so a schema from the app's own zod copy is never refused.
 */
import { type } from 'arktype'
import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { z as appZod } from 'zod-4-1'
import { createAgent, defineTool, InvalidInputError, type SessionEvent } from '../../src/index.js'
import { scriptedModel } from '../../src/testing.js'

const callWith = (args: string) =>
  scriptedModel([{ toolCalls: [{ name: 'weather', arguments: args }] }, 'done'])

const resultsOf = (events: readonly SessionEvent[]) =>
  events.flatMap((e) => (e.type === 'tool/result' ? [e.data.result] : []))

/** Runs one call of `weather` with `args`; returns what the tool got and what the model was told. */
const run = async (parameters: Parameters<typeof defineTool>[0]['parameters'], args: string) => {
  const got: unknown[] = []
  const weather = defineTool({
    name: 'weather',
    description: 'The weather in a city.',
    parameters,
    execute: (input) => {
      got.push(input)
      return 'sunny'
    },
  })
  const model = callWith(args)
  const agent = createAgent({ model, tools: [weather] })
  agent.followup('weather?')
  await agent.whenIdle()
  await agent.dispose()
  return { got, results: resultsOf(agent.session.events), spec: model.requests[0]?.tools[0] }
}

describe('R21b: tool parameters from any Standard Schema library', () => {
  it('R21b: a schema of another zod 4 release (the app’s own copy, 4.1) is accepted and checks the arguments', async () => {
    const parameters = appZod.object({ city: appZod.string() })
    const ok = await run(parameters, '{"city":"Oslo"}')
    expect(ok.got).toEqual([{ city: 'Oslo' }])
    expect(ok.spec?.parameters).toMatchObject({
      type: 'object',
      properties: { city: { type: 'string' } },
      required: ['city'],
    })
    const bad = await run(parameters, '{"city":7}')
    expect(bad.got).toEqual([])
    expect(bad.results[0]).toMatchObject({ isError: true, code: 'INVALID_ARGUMENTS' })
    expect(JSON.stringify(bad.results[0]?.content)).toContain('city')
  })

  it('R21b: an ArkType schema gives its own JSON Schema and validates the arguments', async () => {
    const parameters = type({ city: 'string' })
    const ok = await run(parameters, '{"city":"Oslo"}')
    expect(ok.got).toEqual([{ city: 'Oslo' }])
    expect(ok.spec?.parameters).toMatchObject({ type: 'object', properties: { city: { type: 'string' } } })
    const bad = await run(parameters, '{"city":7}')
    expect(bad.results[0]).toMatchObject({ isError: true, code: 'INVALID_ARGUMENTS' })
    expect(JSON.stringify(bad.results[0]?.content)).toMatch(/city: .*string/)
  })

  it('R21b: an asynchronous Standard Schema is awaited, without a Promise in the loop', async () => {
    const parameters = {
      '~standard': {
        version: 1 as const,
        vendor: 'custom',
        validate: (value: unknown) =>
          Promise.resolve(
            typeof (value as { city?: unknown }).city === 'string'
              ? { value: value as { city: string } }
              : { issues: [{ message: 'a city is needed', path: [{ key: 'city' }] }] },
          ),
        jsonSchema: {
          input: () => ({ type: 'object' }),
          output: () => ({ type: 'object', properties: { city: { type: 'string' } } }),
        },
      },
    }
    expect((await run(parameters, '{"city":"Oslo"}')).got).toEqual([{ city: 'Oslo' }])
    const bad = await run(parameters, '{}')
    expect(JSON.stringify(bad.results[0]?.content)).toContain('city: a city is needed')
  })

  it('R21b: an asynchronous schema that rejects gives INVALID_ARGUMENTS and the turn goes on', async () => {
    const parameters = {
      '~standard': {
        version: 1 as const,
        vendor: 'custom',
        validate: () => Promise.reject(Object.create(null)),
        jsonSchema: { input: () => ({}), output: () => ({ type: 'object' }) },
      },
    }
    const { results } = await run(parameters, '{}')
    expect(results[0]).toMatchObject({ isError: true, code: 'INVALID_ARGUMENTS' })
  })

  it('R2: a schema that cannot give a JSON Schema (valibot without toStandardJsonSchema) is refused, naming the tool', () => {
    const weather = defineTool({
      name: 'weather',
      description: 'd',
      parameters: v.object({ city: v.string() }),
      execute: () => 'sunny',
    })
    const create = () => createAgent({ model: scriptedModel([]), tools: [weather] })
    expect(create).toThrow(InvalidInputError)
    expect(create).toThrow(
      /options\.tools\[0\]\.parameters: the schema of tool "weather": a valibot schema that cannot give the JSON Schema the model needs: .*toStandardJsonSchema/,
    )
  })

  it('R2: parameters that are no schema at all say what is expected', () => {
    const create = () =>
      createAgent({
        model: scriptedModel([]),
        tools: [
          { name: 'weather', description: 'd', parameters: { city: 'string' }, execute: () => '' },
        ] as never,
      })
    expect(create).toThrow(
      /options\.tools\[0\]\.parameters: expected a schema for the arguments of tool "weather": a zod, valibot or ArkType schema/,
    )
  })
})
