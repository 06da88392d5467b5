/** The hooks of one run: `promptSubmit`, `step`, `turnStopping` and `requestError`, scripted. */
import { NEVER, tap } from 'rxjs'
import type { Agent, AgentHooks, PromptDecision, UserMessageData } from '../../src/index.js'
import { describeError } from './log.js'
import { after, type Env, failAfter, onAbort, tracked } from './parts.js'
import type { HookPlan, Plan } from './schedule.js'

/** At most this many retries from `requestError` per run, so every run ends. */
const MAX_RETRIES = 3

const plainHook = (env: Env, plan: HookPlan): unknown => {
  if (plan.kind === 'ok') return plan.d === 0 ? undefined : env.cold(`${'-'.repeat(plan.d)}|`)
  if (plan.kind === 'hang') return tracked(env.log, NEVER)
  throw env.thrown('hook threw')
}

const cyclic = <T>(list: readonly T[], i: number): T => list[i % list.length] as T

export const buildHooks = (env: Env, plan: Plan): AgentHooks<Agent> => {
  const { log } = env
  const hooks: { -readonly [K in keyof AgentHooks<Agent>]: AgentHooks<Agent>[K] } = {}
  const { admissions, stepHooks, turnStopping, requestErrors } = plan
  if (admissions !== null) {
    hooks.promptSubmit = ({ content, signal }) => {
      const first = content[0]
      const text = first?.type === 'text' ? first.text : '?'
      const at = log.prompts.length
      const choice = cyclic(admissions, at)
      const contexts =
        choice.kind === 'allow'
          ? Array.from({ length: choice.contexts }, (_, k) => `${text}+ac${at}.${k}`)
          : []
      log.prompts.push({ text, position: log.timeline.length, plan: choice, contexts })
      switch (choice.kind) {
        case 'allow': {
          const additionalContexts = contexts.map(
            (t): UserMessageData => ({
              content: [{ type: 'text', text: t }],
              source: { kind: 'plugin', plugin: 'rel' },
            }),
          )
          const decision: PromptDecision = {
            kind: 'allow',
            additionalContexts,
            ...(choice.rewrite ? { content: `${text}*` } : {}),
          }
          return after(env, choice.d, decision)
        }
        case 'block':
          return after(env, choice.d, { kind: 'block', reason: 'blocked' } as PromptDecision)
        case 'error':
          return failAfter(env, choice.d, 'promptSubmit failed')
        case 'throw':
          throw env.thrown('promptSubmit threw')
        case 'invalid':
          return { kind: 'maybe' } as unknown as PromptDecision
        case 'hang':
          return tracked(
            log,
            onAbort<PromptDecision>(signal, (s) => {
              if (choice.onAbort === 'error') s.error(signal.reason)
              if (choice.onAbort === 'allow') s.next({ kind: 'allow' })
            }),
          )
      }
    }
  }
  if (stepHooks.length > 0) {
    hooks.step = ({ turn, step }) => {
      const choice = cyclic(stepHooks, log.stepHooks.length)
      log.stepHooks.push({ turn, step, plan: choice })
      return plainHook(env, choice) as undefined
    }
  }
  if (turnStopping.length > 0) {
    let calls = 0
    hooks.turnStopping = () => plainHook(env, cyclic(turnStopping, calls++)) as undefined
  }
  if (requestErrors.length > 0) {
    hooks.requestError = ({ turn, step }) => {
      const choice = cyclic(requestErrors, log.requestErrors.length)
      const entry = { turn, step, retried: false }
      log.requestErrors.push(entry)
      const retry = () => {
        if (!choice.retry || log.retries >= MAX_RETRIES) return
        try {
          env.agent().retry()
          entry.retried = true
          log.retries++
        } catch (error) {
          log.problems.push(`R24: retry() inside requestError (turn ${turn}) threw ${describeError(error)}`)
        }
      }
      if (choice.d === 0) return retry()
      return env.cold(`${'-'.repeat(choice.d)}(x|)`).pipe(tap(retry))
    }
  }
  return hooks
}
