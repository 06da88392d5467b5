/**
 * docs/reference.md against the code, so the reference cannot drift: every public member of
 * `Agent` and every live and durable event type is documented there, read from the TypeScript
 * sources with the compiler (not from a list kept by hand), and the calls the reference says
 * throw `AgentDisposedError` are exactly those that do.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'
import { AgentDisposedError, createAgent } from '../../src/index.js'
import { scriptedModel } from '../../src/testing.js'

const root = join(import.meta.dirname, '../..')
const reference = readFileSync(join(root, 'docs/reference.md'), 'utf8')

/** The public surface as the compiler sees it: `Agent`'s members and the event type strings. */
const readSurface = () => {
  const index = join(root, 'src/index.ts')
  const program = ts.createProgram([index], {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    strict: true,
    skipLibCheck: true,
    noEmit: true,
    types: ['node'],
  })
  const checker = program.getTypeChecker()
  const source = program.getSourceFile(index)
  const module = source && checker.getSymbolAtLocation(source)
  if (!module) throw new Error('src/index.ts did not compile to a module')
  const exported = (name: string): ts.Type => {
    const symbol = checker.getExportsOfModule(module).find((s) => s.name === name)
    if (!symbol) throw new Error(`src/index.ts does not export ${name}`)
    const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol
    return checker.getDeclaredTypeOfSymbol(target)
  }
  const typeStrings = (union: ts.Type): string[] =>
    (union.isUnion() ? union.types : [union]).map((event) => {
      const property = event.getProperty('type')
      const type = property && checker.getTypeOfSymbol(property)
      if (!type?.isStringLiteral())
        throw new Error(`an event without a literal type: ${checker.typeToString(event)}`)
      return type.value
    })
  const members = exported('Agent')
    .getProperties()
    .map((p) => ({
      name: p.name,
      method: p.declarations?.some((d) => ts.isMethodSignature(d) || ts.isMethodDeclaration(d)) === true,
    }))
  return {
    members,
    live: typeStrings(exported('AgentEvent')),
    durable: typeStrings(exported('SessionEvent')),
  }
}

const surface = readSurface()

/** The text of the section under `## heading`, up to the next `## `. */
const section = (heading: string): string => {
  const start = reference.indexOf(`\n## ${heading}\n`)
  if (start < 0) throw new Error(`docs/reference.md has no "## ${heading}" section`)
  const end = reference.indexOf('\n## ', start + 1)
  return reference.slice(start, end < 0 ? undefined : end)
}

/** The code spans of the first column of each table row in `text` (header rows left out). */
const firstColumns = (text: string): string[][] =>
  text
    .split('\n')
    .filter((line, i, lines) => line.startsWith('| ') && !/^\|[\s|-]+$/.test(lines[i + 1] ?? ''))
    .filter((line) => !/^\|[\s|-]+$/.test(line))
    .map((line) => {
      const cell = /^\|((?:[^|\\]|\\.)*)\|/.exec(line)?.[1] ?? ''
      return [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1] as string)
    })

/** The member a code span names: `send(x, …)` names `send`, `session.events` names `session`. */
const memberOf = (span: string): string => /^[A-Za-z_$][\w$]*/.exec(span)?.[0] ?? span

describe('docs/reference.md matches the code', () => {
  it('the compiler finds the members and the events (the check reads something)', () => {
    expect(surface.members.map((m) => m.name)).toEqual(expect.arrayContaining(['send', 'status$', 'id']))
    expect(surface.live).toContain('agent/inbox/enqueue')
    expect(surface.durable).toContain('turn/start')
  })

  it('every public member of Agent is in the members table, and every row names one', () => {
    const rows = firstColumns(section('Agent members'))
    const named = new Set(rows.flat().map(memberOf))
    expect(surface.members.map((m) => m.name).filter((name) => !named.has(name))).toEqual([])
    const members = new Set(surface.members.map((m) => m.name))
    expect([...named].filter((name) => !members.has(name))).toEqual([])
  })

  it('no member is documented twice: each row of the members table names different calls', () => {
    const spans = firstColumns(section('Agent members')).flat()
    expect(spans.filter((span, i) => spans.indexOf(span) !== i)).toEqual([])
  })

  it('every live and durable event type is in the events tables, and every row names one', () => {
    const named = new Set(firstColumns(section('Events')).flat())
    const types = [...surface.live, ...surface.durable]
    expect(types.filter((type) => !named.has(type))).toEqual([])
    expect([...named].filter((type) => !types.includes(type))).toEqual([])
  })

  it('V2: the calls it says throw AgentDisposedError after dispose() are those that do', async () => {
    const agent = createAgent({ model: scriptedModel(['Hi.']) })
    const id = agent.followup('hi')
    await agent.whenIdle()
    await agent.dispose()
    // Arguments that each method accepts while the agent lives, so only disposal can refuse them.
    const valid: Record<string, readonly unknown[]> = {
      send: ['x', { target: 'next-turn' }],
      followup: ['x'],
      run: ['x'],
      steer: ['x'],
      inject: ['x'],
      cancel: [{ kind: 'user' }],
      retry: [],
      whenIdle: [],
      dispose: [],
      outcome: [id],
      outcome$: [id],
      reply$: [id],
      remove: [id],
      replace: [id, 'y'],
      move: [id, 0],
      promote: [id],
      approve: ['c1'],
      deny: ['c1'],
      cancelToolCall: ['c1'],
      raiseBudget: [{ maxRequests: 10 }],
      rollback: [1],
      compact: [],
    }
    const methods = surface.members.filter((m) => m.method).map((m) => m.name)
    expect(methods.filter((name) => !(name in valid))).toEqual([])
    const throwing = methods.filter((name) => {
      try {
        const call = (agent as unknown as Record<string, (...args: unknown[]) => unknown>)[name]
        const result = call?.apply(agent, [...(valid[name] ?? [])])
        if (result instanceof Promise) result.catch(() => {})
        return false
      } catch (error) {
        return error instanceof AgentDisposedError
      }
    })
    const sentence = /After `dispose\(\)` has resolved,([^.]*?)throw `AgentDisposedError`/.exec(reference)
    expect(sentence, 'docs/reference.md says which calls throw AgentDisposedError').not.toBeNull()
    const documented = [...(sentence?.[1] ?? '').matchAll(/`([^`]+)`/g)].map((m) => memberOf(m[1] as string))
    expect(documented.sort()).toEqual(throwing.sort())
  })
})
