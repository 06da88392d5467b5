/**
 * A tool's JSON Schema without the top-level `$schema` that `z.toJSONSchema` adds: the model gains
 * nothing from it and some servers refuse it.
 */
export const withoutSchemaKey = (parameters: unknown): unknown => {
  if (typeof parameters !== 'object' || parameters === null || !('$schema' in parameters)) return parameters
  const { $schema: _, ...rest } = parameters as Record<string, unknown>
  return rest
}
