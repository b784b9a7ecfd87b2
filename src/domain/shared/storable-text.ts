// NUL, and a surrogate that is not half of a pair (text that is not Unicode at all).
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * Whether PostgreSQL can store `text` as given: text and jsonb refuse NUL, and an unpaired
 * surrogate would be silently replaced by U+FFFD. Every transport checks its input with this
 * (JSON bodies, GraphQL literals) before anything runs.
 */
export function isStorableText(text: string): boolean {
  return !UNSTORABLE.test(text);
}
