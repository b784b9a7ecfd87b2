import { getOperationAST, getVariableValues, type DocumentNode, type GraphQLSchema } from 'graphql';
import type { LRUCache } from 'lru-cache';
import type { Principal } from '../domain/auth/api-key.service.js';
import type { Database } from '../db/database.js';
import { CostWalk } from './limits/cost-walk.js';
import type { GraphQLLimits } from './limits/limits.js';
import { planQuery } from './sql-plan/planner.js';
import type { PreparedPlans } from './sql-plan/prepared.js';
import { documentBytes, lruByBytes, textBytes } from './retained-size.js';

/** The longest query text remembered. */
const MAX_QUERY_LENGTH = 8_192;
/** Bytes of remembered operations (their key and document), and of Accept values (a client sends one, a gateway another). */
export const PLANNED_OPERATION_BYTES = 8 * 1024 * 1024;
export const ACCEPT_BYTES = 64 * 1024;

export interface PlannedOperationsBudget {
  operationBytes: number;
  acceptBytes: number;
}

/** A POST body Apollo takes as exactly one operation, and nothing else it would act on. */
export interface OperationBody {
  query: string;
  operationName: string | undefined;
  variables: Record<string, unknown> | undefined;
}

/** What Apollo answered a planned operation with: its document, and its content type per Accept. */
export interface AnsweredByPlan {
  document: DocumentNode;
  accept: string | undefined;
  contentType: string;
}

export type PlannedAnswer =
  | { kind: 'answered'; data: string; contentType: string }
  /** Apollo's to answer; `planTried`: the plan ran and found no root, the resolvers answer without running it again. */
  | { kind: 'apollo'; planTried: boolean };

/**
 * The short way for an operation Apollo already parsed, validated and answered with a SQL plan
 * (the same few documents come again and again: a gateway's _entities batch, a page's query).
 * Apollo's pipeline costs about as much CPU per request as the plan itself (HeaderMap, request
 * hashing, plugins, context cloning, error formatting for no error); here the remembered document
 * is costed with this request's variables (the cost limit) and planned again, and only an answer
 * the plan gives with data is served — the same status, headers and body bytes Apollo sends for
 * it. Everything else goes through Apollo: a document not seen yet, a refusal (cost, variables
 * that do not coerce), an operation the plan does not cover with these variables, a root not
 * found (the resolvers' error), a body with `extensions` (persisted queries) or anything but
 * `query`, `variables` and `operationName`, an Accept header Apollo has not answered yet.
 */
export class PlannedOperations {
  /** Both least recently used out first (retained-size.ts): no client's first operations or Accept values stay for good. */
  private readonly documents: LRUCache<string, DocumentNode>;
  /** Content type Apollo chose per Accept header (it depends on nothing else for a single result); NO_ACCEPT for none. */
  private readonly contentTypes: LRUCache<string, string>;

  constructor(
    private readonly schema: GraphQLSchema,
    private readonly limits: GraphQLLimits,
    private readonly prepared: PreparedPlans,
    budget: PlannedOperationsBudget = { operationBytes: PLANNED_OPERATION_BYTES, acceptBytes: ACCEPT_BYTES },
  ) {
    this.documents = lruByBytes(budget.operationBytes, (document, key) => textBytes(key) + documentBytes(document));
    this.contentTypes = lruByBytes(budget.acceptBytes, (contentType, accept) => textBytes(accept) + textBytes(contentType));
  }

  /** The body as one operation, or null when it is anything else (Apollo answers it). */
  static bodyOf(body: unknown): OperationBody | null {
    if (body === null || typeof body !== 'object' || Array.isArray(body)) return null;
    let keys = 0;
    const { query, operationName, variables } = body as Record<string, unknown>;
    if (typeof query !== 'string' || query.length > MAX_QUERY_LENGTH) return null;
    keys++;
    if (operationName !== undefined) {
      if (typeof operationName !== 'string') return null;
      keys++;
    }
    if (variables !== undefined) {
      if (variables === null || typeof variables !== 'object' || Array.isArray(variables)) return null;
      keys++;
    }
    // every own key is one of the three (an undefined value cannot come out of JSON)
    for (const _ in body) if (--keys < 0) return null;
    return { query, operationName, variables: variables as Record<string, unknown> | undefined };
  }

  /** Runs the remembered operation's plan for this request, or says why Apollo answers it. */
  async answer(operation: OperationBody, accept: string | undefined, principal: Principal, db: Database): Promise<PlannedAnswer> {
    const known = this.known(operation, accept);
    if (!known) return { kind: 'apollo', planTried: false };
    const { document, contentType } = known;
    const { operationName, variables } = operation;
    // the cost check of limits/cost.ts, its variables coerced once for the cost and the plan
    const chosen = getOperationAST(document, operationName);
    if (!chosen) return { kind: 'apollo', planTried: false };
    const coerced = getVariableValues(this.schema, chosen.variableDefinitions ?? [], variables ?? {});
    if (coerced.errors || new CostWalk(this.schema, document, coerced.coerced).operation(chosen) > this.limits.maxCost) return { kind: 'apollo', planTried: false };
    const plan = planQuery({ schema: this.schema, document, operationName, variables, coercedVariables: coerced.coerced, ownerId: principal.ownerId, maxPageSize: this.limits.maxPageSize });
    if (!plan) return { kind: 'apollo', planTried: false };
    const [row] = await db.query<{ data: string | null }>(plan.sql, plan.params, this.prepared.nameOf(plan.sql));
    if (row?.data === null || row?.data === undefined) return { kind: 'apollo', planTried: true };
    return { kind: 'answered', data: row.data, contentType };
  }

  /** The remembered document and content type for this operation and Accept value, if both are (a hit makes both the most recently used). */
  known(operation: OperationBody, accept: string | undefined): { document: DocumentNode; contentType: string } | undefined {
    const contentType = this.contentTypes.get(accept ?? NO_ACCEPT);
    const document = contentType === undefined ? undefined : this.documents.get(keyOf(operation));
    return document === undefined || contentType === undefined ? undefined : { document, contentType };
  }

  /** After Apollo answered `operation` with a SQL plan (status 200, no errors): the next time, the short way. */
  remember(operation: OperationBody, answered: AnsweredByPlan): void {
    const accept = answered.accept ?? NO_ACCEPT;
    if (!this.contentTypes.has(accept)) this.contentTypes.set(accept, answered.contentType);
    const key = keyOf(operation);
    if (!this.documents.has(key)) this.documents.set(key, answered.document);
  }
}

/** The key of a request without an Accept header (a header value never holds a NUL). */
const NO_ACCEPT = '\u0000';

/** Unambiguous: the name's length (0: no name) before the name and the text. */
function keyOf({ query, operationName }: OperationBody): string {
  return operationName === undefined ? `0:${query}` : `${operationName.length + 1}:${operationName}${query}`;
}
