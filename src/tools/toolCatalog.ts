import type { Subscription } from 'rxjs'
import { type InputIssue, InvalidInputError } from '../contracts/errors.js'
import type { ToolSpec } from '../contracts/model.js'
import type { ToolDefinition, ToolEntry, ToolSource } from '../contracts/tools.js'
import { toolIssues } from '../messages/checkTools.js'
import { toolSpecOf } from './toolSpecs.js'

/**
 * One list of tools as a step sees it (R100): the definitions in order, and what the runtime looks
 * up in it (by name, the specs the model sees, the tools that ask for approval), made once per list.
 */
export type ToolList<A> = {
  /** 0 for the list at creation; each change of a source makes the next. */
  readonly version: number
  readonly tools: readonly ToolDefinition<A>[]
  readonly names: readonly string[]
  readonly byName: ReadonlyMap<string, ToolDefinition<A>>
  readonly specs: readonly ToolSpec[]
  /** The tools whose `needsApproval` may ask (R61). */
  readonly gated: ReadonlyMap<string, ToolDefinition<A>>
}

/** A change of the list, for the reducer: the new version's names, and what was wrong with it. */
export type ToolListChange = {
  readonly version: number
  readonly names: readonly string[]
  readonly error?: unknown
}

const isSource = <A>(entry: ToolEntry<A>): entry is ToolSource<A> =>
  typeof entry === 'object' && entry !== null && 'tools$' in entry

/**
 * Where an agent's tools come from: the `tools` option's tools and tool sources, merged in order
 * into one list per version (a name used twice keeps the first). The list at creation is checked
 * strictly (`InvalidInputError`); a later list keeps what it can and says what it dropped. Lists
 * are kept while a step may still use them: `stepStarted` drops the older ones.
 */
export class ToolCatalog<A> {
  /** The tools each entry gives now: a tool alone, or a source's last list. */
  readonly #given: (readonly ToolDefinition<A>[])[]
  readonly #subscriptions: Subscription[] = []
  #lists: readonly ToolList<A>[] = []
  /** The constructor reads the sources' current lists: the first list is made once it has. */
  #opening = true
  #stepVersion = 0
  #post: ((change: ToolListChange) => void) | undefined
  #closed = false

  /** Opens the sources (their current lists are read now); throws for a bad list at creation. */
  constructor(entries: readonly ToolEntry<A>[]) {
    this.#given = entries.map((entry) => (isSource(entry) ? [] : [entry]))
    try {
      entries.forEach((entry, i) => {
        if (isSource(entry)) this.#subscriptions.push(this.#follow(entry, i))
      })
      const { list, issues } = merged(this.#given, 0)
      if (issues.length > 0) throw new InvalidInputError('createAgent()', issues)
      this.#lists = [list]
      this.#opening = false
    } catch (error) {
      this.close()
      throw error
    }
  }

  /** Whether a tool source gives some of the tools: only then may the list change. */
  get sourced(): boolean {
    return this.#subscriptions.length > 0
  }

  get latest(): ToolList<A> {
    return this.#lists[this.#lists.length - 1] as ToolList<A>
  }

  /** The list of `version`, or the latest when it was forgotten (a step after a reopen). */
  list(version: number): ToolList<A> {
    for (const list of this.#lists) if (list.version === version) return list
    return this.latest
  }

  /** The list of the step that runs or ran last (what an approval's time limit is read from). */
  get stepList(): ToolList<A> {
    return this.list(this.#stepVersion)
  }

  /** A step of `version` makes its request: no step will use an older list again. */
  stepStarted(version: number): void {
    this.#stepVersion = version
    if ((this.#lists[0]?.version ?? version) >= version) return
    this.#lists = this.#lists.filter((list) => list.version >= version || list === this.latest)
  }

  /** Changes from now on are told to `post` (the agent's driver). */
  connect(post: (change: ToolListChange) => void): void {
    this.#post = post
  }

  /** Stops following the sources (the agent ended). */
  close(): void {
    this.#closed = true
    for (const subscription of this.#subscriptions.splice(0)) subscription.unsubscribe()
  }

  #follow(source: ToolSource<A>, index: number): Subscription {
    return source.tools$.subscribe({
      next: (tools) => this.#changed(index, tools),
      error: (error: unknown) => this.#post?.({ ...this.#latestChange(), error: sourceFailed(index, error) }),
    })
  }

  #changed(index: number, tools: readonly ToolDefinition<A>[]): void {
    if (this.#closed) return
    const checked = checkedList(tools, index)
    this.#given[index] = checked.tools
    if (this.#opening) {
      if (checked.issues.length > 0) throw new InvalidInputError('createAgent()', checked.issues)
      return
    }
    const { list, issues } = merged(this.#given, this.latest.version + 1)
    this.#lists = [...this.#lists, list]
    const all = [...checked.issues, ...issues]
    const error = all.length > 0 ? new InvalidInputError(`tool source tools[${index}]`, all) : undefined
    const change = { version: list.version, names: list.names }
    this.#post?.(error === undefined ? change : { ...change, error })
  }

  #latestChange(): ToolListChange {
    return { version: this.latest.version, names: this.latest.names }
  }
}

/** A source's list, each tool checked as a definition in `tools` is; a bad one is dropped. */
const checkedList = <A>(
  tools: unknown,
  index: number,
): { readonly tools: readonly ToolDefinition<A>[]; readonly issues: readonly InputIssue[] } => {
  if (!Array.isArray(tools))
    return {
      tools: [],
      issues: [
        {
          path: ['options', 'tools', index],
          message: 'expected the source to emit an array of tool definitions',
        },
      ],
    }
  const kept: ToolDefinition<A>[] = []
  const issues: InputIssue[] = []
  tools.forEach((tool, i) => {
    const problems = toolIssues(tool, ['options', 'tools', index, i])
    if (problems.length === 0) kept.push(tool as ToolDefinition<A>)
    else issues.push(...problems)
  })
  return { tools: kept, issues }
}

/** The entries' tools as one list: the first of a name is kept, a later one is an issue. */
const merged = <A>(
  given: readonly (readonly ToolDefinition<A>[])[],
  version: number,
): { readonly list: ToolList<A>; readonly issues: readonly InputIssue[] } => {
  const byName = new Map<string, ToolDefinition<A>>()
  const issues: InputIssue[] = []
  given.forEach((tools, index) => {
    for (const tool of tools) {
      if (byName.has(tool.name))
        issues.push({
          path: ['options', 'tools', index],
          message: `duplicate tool name "${tool.name}": the first tool of that name is kept; rename one (an MCP toolset takes a prefix)`,
        })
      else byName.set(tool.name, tool)
    }
  })
  const tools = Object.freeze([...byName.values()])
  const gated = new Map(
    tools.filter((t) => t.needsApproval !== undefined && t.needsApproval !== false).map((t) => [t.name, t]),
  )
  const list: ToolList<A> = Object.freeze({
    version,
    tools,
    names: Object.freeze([...byName.keys()]),
    byName,
    specs: Object.freeze(tools.map(toolSpecOf)),
    gated,
  })
  return { list, issues }
}

const sourceFailed = (index: number, error: unknown): Error =>
  new InvalidInputError(`tool source tools[${index}]`, [
    { path: ['tools$'], message: `errored, so its last list stays: ${String(error)}` },
  ])
