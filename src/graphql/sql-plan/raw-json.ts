import type { FormattedExecutionResult } from 'graphql';

/** An operation's `data` as JSON text PostgreSQL built (planner.ts): printed as is, never parsed. */
export class RawJsonData {
  constructor(readonly text: string) {}
}

/**
 * Apollo's `stringifyResult`: its own (JSON.stringify plus a newline) except that planned `data`
 * goes into the body verbatim. A planned answer has neither errors nor extensions.
 */
export function stringifyResult(result: FormattedExecutionResult): string {
  const { data } = result as { data?: unknown };
  if (!(data instanceof RawJsonData)) return `${JSON.stringify(result)}\n`;
  if (result.errors !== undefined || result.extensions !== undefined) return `${JSON.stringify({ ...result, data: JSON.parse(data.text) })}\n`;
  return `{"data":${data.text}}\n`;
}
