/**
 * A value built the first time it is asked for, then kept. For `zod/mini` schemas, which would
 * otherwise be built when their module is evaluated: at every worker start in the background, at
 * every page load in the bridge, whether or not the event at hand parses them (docs/performance.md).
 * A function rather than a lazy schema, whose class the bridge's size ceiling has no room for;
 * marked free of side effects, so a bundle drops the ones it never calls.
 *
 * @example
 * export const siteListSchema = builtOnFirstUse(() => z.array(z.string()));
 * siteListSchema().safeParse(value); // built now, kept for the next call
 */
/*#__NO_SIDE_EFFECTS__*/
export function builtOnFirstUse<Value>(build: () => Value): () => Value {
  let built: { value: Value } | undefined;
  return () => (built ??= { value: build() }).value;
}
