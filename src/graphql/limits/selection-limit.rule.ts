import { GraphQLError, parse, type ASTVisitor, type DocumentNode, type ValidationContext, type ValidationRule } from 'graphql';
import { LedgerError } from '../../domain/errors.js';
import type { LRUCache } from 'lru-cache';
import { DocumentShape } from './document-shape.js';
import { lruByBytes, textBytes } from '../retained-size.js';

/**
 * The refusal of a document whose operations, fragments expanded (and fragments no operation
 * spreads), hold more than `maxSelections` selections, or null. Measured in time linear in the
 * document (document-shape.ts).
 */
export function selectionRefusal(document: DocumentNode, maxSelections: number): GraphQLError | null {
  const selections = DocumentShape.of(document).totalSelections();
  if (selections <= maxSelections) return null;
  const actual = Number.isSafeInteger(selections) ? selections : null;
  const problem = `the document expands to ${actual ?? 'more than 2^53'} selections; at most ${maxSelections} are allowed`;
  const cause = new LedgerError('validation_error', problem, { limit: 'selections', maximum: maxSelections, actual });
  return new GraphQLError(problem, { nodes: [document], originalError: cause, extensions: { http: { status: 400 } } });
}

/**
 * Refuses an oversized document during validation. graphql's own rules run in the same pass and
 * some are quadratic in the expanded selections (OverlappingFieldsCanBeMerged compares every pair
 * of fields with one response key), and a rule cannot end the pass (Apollo answers an exception
 * thrown from validation with a 500), so both transports check first (refuseOversizedQuery over
 * HTTP, OperationChecks over WebSocket) and this rule only covers any other way in.
 */
export function selectionLimitRule(maxSelections: number): ValidationRule {
  return (context: ValidationContext): ASTVisitor => ({
    Document(document) {
      const refused = selectionRefusal(document, maxSelections);
      if (refused) context.reportError(refused);
    },
  });
}

/**
 * The refusal of an HTTP request's `query` (the text Apollo will parse) that expands to too many
 * selections, checked before Apollo parses and validates it. A query that does not parse, or is
 * not a string (a persisted query's hash alone), is Apollo's to answer; a persisted query was
 * checked when it was registered.
 */
export function refuseOversizedQuery(query: unknown, limits: { maxTokens: number; maxSelections: number }): GraphQLError | null {
  if (typeof query === 'string' && query.length <= MAX_REMEMBERED_LENGTH) return acceptedQueries(limits).get(query) ? null : rememberAccepted(query, limits);
  return checkQuery(query, limits);
}

/**
 * Texts found within the limits, per set of limits: clients send the same few documents again
 * and again, and parsing one to count its selections cost about as much as Apollo's whole
 * (cached) parse and validation of it. Bounded by their bytes: short texts only, the least
 * recently sent forgotten first.
 */
const accepted = new WeakMap<object, LRUCache<string, true>>();
export const ACCEPTED_TEXT_BYTES = 2 * 1024 * 1024;
const MAX_REMEMBERED_LENGTH = 8_192;

function acceptedQueries(limits: { maxTokens: number; maxSelections: number }): LRUCache<string, true> {
  let texts = accepted.get(limits);
  if (!texts) accepted.set(limits, (texts = lruByBytes<string, true>(ACCEPTED_TEXT_BYTES, (_, text) => textBytes(text))));
  return texts;
}

function rememberAccepted(query: string, limits: { maxTokens: number; maxSelections: number }): GraphQLError | null {
  const refused = checkQuery(query, limits);
  if (refused) return refused;
  acceptedQueries(limits).set(query, true);
  return null;
}

function checkQuery(query: unknown, limits: { maxTokens: number; maxSelections: number }): GraphQLError | null {
  if (typeof query !== 'string') return null;
  let document: DocumentNode;
  try {
    document = parse(query, { maxTokens: limits.maxTokens });
  } catch {
    return null;
  }
  return selectionRefusal(document, limits.maxSelections);
}
