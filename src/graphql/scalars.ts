import { GraphQLError, GraphQLScalarType, Kind } from 'graphql';
export { GraphQLJSONObject as JSONObjectScalar } from 'graphql-scalars';

/**
 * Money in GraphQL: a decimal number of major units (1250 minor units of a 2-fraction asset is
 * "12.5"), always printed as a string so that no amount passes through a float on the way out
 * (REST prints the same values as JSON numbers). Input takes a string or a number; the value is
 * then checked by the domain's money rules, exactly as REST's `amount` (same errors).
 */
export const DecimalScalar = new GraphQLScalarType<string | number, string>({
  name: 'Decimal',
  description: 'A decimal number in major units, printed as a string (e.g. "12.5"). Input: a string or a number.',
  serialize(value) {
    if (typeof value === 'string') return value;
    if (typeof value === 'number' && Number.isFinite(value)) return String(value);
    throw new GraphQLError('Decimal cannot represent this value');
  },
  parseValue(value) {
    if (typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value))) return value;
    throw new GraphQLError('Decimal must be a string or a number');
  },
  parseLiteral(ast) {
    if (ast.kind === Kind.STRING) return ast.value;
    if (ast.kind === Kind.INT || ast.kind === Kind.FLOAT) return Number(ast.value);
    throw new GraphQLError('Decimal must be a string or a number', { nodes: [ast] });
  },
});

/** ISO 8601 UTC with milliseconds, as `Date.prototype.toISOString` prints (CONTRACT §3). */
export const DateTimeScalar = new GraphQLScalarType<Date, string>({
  name: 'DateTime',
  description: 'An ISO 8601 UTC timestamp with milliseconds, e.g. "2026-01-31T12:00:00.000Z".',
  serialize(value) {
    const date = value instanceof Date ? value : new Date(String(value));
    if (Number.isNaN(date.getTime())) throw new GraphQLError('DateTime cannot represent this value');
    return date.toISOString();
  },
  parseValue(value) {
    const date = new Date(String(value));
    if (typeof value !== 'string' || Number.isNaN(date.getTime())) throw new GraphQLError('DateTime must be an ISO 8601 string');
    return date;
  },
  parseLiteral(ast) {
    const date = ast.kind === Kind.STRING ? new Date(ast.value) : new Date(Number.NaN);
    if (Number.isNaN(date.getTime())) throw new GraphQLError('DateTime must be an ISO 8601 string', { nodes: [ast] });
    return date;
  },
});
