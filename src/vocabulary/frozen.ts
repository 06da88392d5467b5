import type { ContentBlock, MessageSource } from '../contracts/messages.js'

type Primitive = string | number | boolean | bigint | symbol | null | undefined

/** Whether `A` and `B` are the same type, `readonly` included (the compiler's own identity). */
type Same<A, B> = (<G>() => G extends A ? 1 : 2) extends <G>() => G extends B ? 1 : 2 ? true : false
/** Whether each of `A` and `B` is assignable to the other. */
type Mutual<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false

/** The unions of `contracts/messages.ts` the schemas of `messages/` output: kept under their names. */
type Kept<T> = Mutual<T, ContentBlock> extends true ? true : Mutual<T, MessageSource>

/** An optional key's value: absent, never `undefined` (a key whose only value is `undefined` stays). */
type Present<V> = [V] extends [undefined] ? V : Exclude<V, undefined>

type Freeze<T> = T extends Primitive
  ? T
  : Same<T, Readonly<T>> extends true
    ? T
    : T extends readonly (infer E)[]
      ? readonly Frozen<E>[]
      : { readonly [K in keyof T]: Frozen<Present<T[K]>> }

/**
 * A schema's output as the vocabulary's types show it: read-only all the way down, and an
 * optional key absent rather than `undefined` (what is checked is JSON, which has none). A type
 * that is read-only already (a `ContentBlock`, a `MessageSource` of `contracts/`) is kept as it
 * is, under its own name.
 */
export type Frozen<T> = unknown extends T ? T : Kept<T> extends true ? T : Freeze<T>

/** The type a schema defines (its output, `Frozen`): a zod/mini schema or a classic one of `messages/`. */
export type Defined<S extends { readonly _zod: { readonly output: unknown } }> = Frozen<S['_zod']['output']>

/**
 * What a schema made of JSON input, under its `Frozen` type: JSON holds no `undefined`, so no
 * optional key of the output holds one; the caller deep-freezes it (or reads it only).
 */
export const parsedJson = <T>(output: T): Frozen<T> => output as Frozen<T>
