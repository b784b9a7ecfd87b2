import { GraphQLError, GraphQLScalarType, Kind, type ObjectValueNode, type ValueNode } from 'graphql';
import { GraphQLJSON, GraphQLJSONObject } from 'graphql-scalars';
import { ExactNumber, plainDecimal, sameDecimal } from '../domain/money.js';
import { parseInstant } from '../domain/shared/instant.js';

/**
 * Money in GraphQL: a decimal number of major units (1250 minor units of a 2-fraction asset is
 * "12.5"), always printed as a string so that no amount passes through a float on the way out
 * (REST prints the same values as JSON numbers). Input takes a string or a number; the value is
 * then checked by the domain's money rules, exactly as REST's `amount` (same errors). A number
 * is never passed through a double: a literal gives its own text, and a variable whose double
 * would alter it arrives as an ExactNumber (src/http/body.ts) and gives its text too.
 */
export const DecimalScalar = new GraphQLScalarType<string | number, string>({
  name: 'Decimal',
  description:
    'An amount of money in major units of its currency, printed as a string without exponent and without trailing zeros (1250 minor units of a 2-decimal asset: "12.5"), so that no amount passes through a float. Input: a string or a number ("12.50", 12.5), with at most the asset\'s decimals.',
  serialize(value) {
    if (typeof value === 'string') return value;
    if (typeof value === 'number' && Number.isFinite(value)) return String(value);
    throw new GraphQLError('Decimal cannot represent this value');
  },
  parseValue(value) {
    if (value instanceof ExactNumber) return numberText(value.text);
    if (typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value))) return value;
    throw new GraphQLError('Decimal must be a string or a number');
  },
  parseLiteral(ast) {
    if (ast.kind === Kind.STRING) return ast.value;
    if (ast.kind === Kind.INT || ast.kind === Kind.FLOAT) return numberText(ast.value, ast);
    throw new GraphQLError('Decimal must be a string or a number', { nodes: [ast] });
  },
});

/** A number's exact text as a plain decimal (the money rules read strings without exponent). */
function numberText(text: string, ast?: ValueNode): string {
  const plain = /[eE]/.test(text) ? plainDecimal(text) : text;
  if (plain === null) throw new GraphQLError('Decimal is out of range', ast ? { nodes: [ast] } : undefined);
  return plain;
}

/**
 * graphql-scalars' JSONObject, except that a number in an object literal is never altered: one
 * whose double would say another value (82241598.62827704, 1e400) is refused. It cannot travel
 * exactly — graphql-jit compiles literal arguments into JavaScript source, where any number is a
 * double — so the caller is told to pass the object in a variable, where it arrives exactly (an
 * ExactNumber, src/http/body.ts) and webhook amounts are read to the last digit.
 */
export const JSONObjectScalar = new GraphQLScalarType({
  ...GraphQLJSONObject.toConfig(),
  description:
    'A JSON object (metadata, webhook values). In a document literal, a number must be exactly what a double says it is; pass the object in a variable to keep every digit of any number.',
  parseLiteral(ast, variables) {
    if (ast.kind !== Kind.OBJECT) throw new GraphQLError('JSONObject cannot represent non-object value', { nodes: [ast] });
    return literalObject(ast, variables);
  },
});

function literalObject(ast: ObjectValueNode, variables: Record<string, unknown> | null | undefined): Record<string, unknown> {
  const value: Record<string, unknown> = Object.create(null);
  for (const field of ast.fields) value[field.name.value] = literalValue(field.value, variables);
  return value;
}

function literalValue(ast: ValueNode, variables: Record<string, unknown> | null | undefined): unknown {
  switch (ast.kind) {
    case Kind.STRING:
    case Kind.BOOLEAN:
      return ast.value;
    case Kind.INT:
    case Kind.FLOAT: {
      const value = Number(ast.value);
      if (!sameDecimal(ast.value, value)) {
        throw new GraphQLError(`JSONObject cannot hold ${ast.value.slice(0, 40)} exactly in a literal: pass the object in a variable`, { nodes: [ast] });
      }
      return value;
    }
    case Kind.OBJECT:
      return literalObject(ast, variables);
    case Kind.LIST:
      return ast.values.map((item) => literalValue(item, variables));
    case Kind.NULL:
      return null;
    case Kind.VARIABLE:
      return variables ? variables[ast.name.value] : undefined;
    default:
      return undefined; // an enum value, as graphql-scalars
  }
}

/**
 * ISO 8601 UTC with milliseconds, as `Date.prototype.toISOString` prints (CONTRACT §3). Input
 * reads an ISO 8601 timestamp with `Z` or any offset, as REST's `asOf` does (finer digits than
 * milliseconds truncated); anything else (no offset, an impossible date) is refused.
 */
const DATE_TIME_INPUT = 'DateTime must be an ISO 8601 timestamp with Z or an offset, e.g. "2026-01-31T12:00:00.000Z"';

export const DateTimeScalar = new GraphQLScalarType<Date, string>({
  name: 'DateTime',
  description: 'An ISO 8601 timestamp; printed in UTC with milliseconds, e.g. "2026-01-31T12:00:00.000Z"; read with Z or any offset.',
  serialize(value) {
    const date = value instanceof Date ? value : new Date(String(value));
    if (Number.isNaN(date.getTime())) throw new GraphQLError('DateTime cannot represent this value');
    return date.toISOString();
  },
  parseValue(value) {
    const date = typeof value === 'string' ? parseInstant(value) : null;
    if (!date) throw new GraphQLError(DATE_TIME_INPUT);
    return date;
  },
  parseLiteral(ast) {
    const date = ast.kind === Kind.STRING ? parseInstant(ast.value) : null;
    if (!date) throw new GraphQLError(DATE_TIME_INPUT, { nodes: [ast] });
    return date;
  },
});

/** Any JSON value: an event's `data`, the resource exactly as REST shows it (CONTRACT §16). */
export const JSONScalar = new GraphQLScalarType({ ...GraphQLJSON.toConfig(), name: 'JSON', description: 'Any JSON value (an object, an array, a string, a number, a boolean or null).' });
