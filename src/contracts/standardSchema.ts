/**
 * The Standard Schema interfaces (standardschema.dev), copied as the specification asks, so that
 * any conforming library (zod, valibot, ArkType …, any release) can describe a tool's parameters,
 * without a dependency on one library or one copy of it.
 */

/** A schema that validates: `schema['~standard'].validate(value)`. */
export type StandardSchemaV1<Input = unknown, Output = Input> = {
  readonly '~standard': StandardSchemaProps<Input, Output>
}

export type StandardSchemaProps<Input = unknown, Output = Input> = {
  readonly version: 1
  readonly vendor: string
  readonly validate: (value: unknown) => StandardSchemaResult<Output> | Promise<StandardSchemaResult<Output>>
  readonly types?: { readonly input: Input; readonly output: Output } | undefined
  /**
   * Standard JSON Schema: the schema as JSON Schema, for the side that receives (`input`) or
   * produces (`output`) values. Zod 4.2+, ArkType 2.1.28+ and valibot's `toStandardJsonSchema()`
   * implement it.
   */
  readonly jsonSchema?: {
    readonly input: (options: { readonly target: string }) => Record<string, unknown>
    readonly output: (options: { readonly target: string }) => Record<string, unknown>
  }
}

export type StandardSchemaResult<Output> =
  | { readonly value: Output; readonly issues?: undefined }
  | { readonly issues: readonly StandardSchemaIssue[] }

export type StandardSchemaIssue = {
  readonly message: string
  readonly path?: readonly (PropertyKey | { readonly key: PropertyKey })[] | undefined
}

/** The type of what a schema gives back when a value is valid. */
export type InferOutput<S extends StandardSchemaV1> = NonNullable<S['~standard']['types']>['output']
