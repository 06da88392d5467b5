/**
 * How the package parses by a zod schema: with zod's English messages passed to the parse.
 *
 * The schemas are written with `zod/mini`, which a bundler can shake down to what they use:
 * classic `zod` brings every locale zod ships (~260 KB of a browser bundle). `zod/mini` loads no
 * locale, so an issue without a message of its own would read "Invalid input"; passing the
 * English locale to each parse (not `z.config`, which would change the app's own zod) keeps the
 * messages a caller reads the same whichever zod the app has loaded and configured.
 */
import * as z from 'zod/mini'
import { en } from 'zod/v4/locales'

const ENGLISH: z.core.ParseContext<z.core.$ZodIssue> = { error: en().localeError }

/** `value` parsed by `schema` (a `zod/mini` or classic zod 4 schema), its issues in English. */
export const safeParse = <T>(schema: z.core.$ZodType<T>, value: unknown): z.core.util.SafeParseResult<T> =>
  z.safeParse(schema, value, ENGLISH)
