import {
  getArgumentValues,
  getNamedType,
  getVariableValues,
  GraphQLEnumType,
  GraphQLObjectType,
  Kind,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import { collectFields, collectSubfields } from 'graphql/execution/collectFields.js';
import { balanceAfter, CURRENCY_ORDER, PROJECT_CURRENCIES, recentOfWallet, transactionCountOf } from '../../domain/ledger/ledger.repository.js';
import { MINT_ADDRESS } from '../../domain/ledger/ledger.types.js';
import { minorToDecimalSql } from '../../domain/money.js';
import { ProjectIdRule, UuidRule } from '../../domain/projects/project.rules.js';
import { walletsOfProject } from '../../domain/wallets/wallet.repository.js';
import { decodeCursor } from '../cursors.js';
import { projectIdOf } from '../ids.js';
import { checkFirst } from '../paging.js';
import { isoTimeSql, jsonObjectSql, literalSql, seqCursorSql } from './sql.js';

/** One statement whose single column `data` is the operation's whole `data` as JSON text (NULL: answer with resolvers). */
export interface SqlPlan {
  sql: string;
  params: unknown[];
}

export interface PlanRequest {
  schema: GraphQLSchema;
  document: DocumentNode;
  operationName: string | null | undefined;
  variables: Record<string, unknown> | undefined;
  ownerId: string;
  maxPageSize: number;
}

/** Anything the plan does not answer exactly as the resolvers would: they answer instead. */
class Unplannable extends Error {}

const unplannable = (): never => {
  throw new Unplannable();
};

/**
 * Compiles a read-only operation over Project → wallets → balances / recent transactions (and
 * the `wallet` and `wallets` roots) into ONE SQL statement in which PostgreSQL builds the JSON
 * of the answer, as a hand-written query would: no rows to decode, no objects to map, no field
 * to resolve in Node. The SQL reuses the repositories' fragments (which wallets, which
 * currencies, which transactions) and the money module's conversion, so both paths read the
 * same rows and print the same values; a differential test holds them equal.
 *
 * Only the happy path is planned. A field outside the subset, an argument the resolvers would
 * refuse, variables that do not coerce, or a root that is not found (another owner's, say)
 * give `null` here or a NULL `data` from the statement — and the resolvers answer, with their
 * errors. The field selection follows graphql-js's own collection (aliases, fragments,
 * @skip/@include), so the JSON keys come in the order GraphQL would print them.
 */
export function planQuery(request: PlanRequest): SqlPlan | null {
  try {
    return new Planner(request).plan();
  } catch (error) {
    if (error instanceof Unplannable) return null;
    throw error;
  }
}

type Fields = Map<string, readonly FieldNode[]>;

class Planner {
  private readonly params: unknown[] = [];
  private aliases = 0;
  private readonly fragments: Record<string, FragmentDefinitionNode> = Object.create(null);
  private readonly operation: OperationDefinitionNode;
  private variables: Record<string, unknown> = {};

  constructor(private readonly request: PlanRequest) {
    const operations: OperationDefinitionNode[] = [];
    for (const definition of request.document.definitions) {
      if (definition.kind === Kind.FRAGMENT_DEFINITION) this.fragments[definition.name.value] = definition;
      else if (definition.kind === Kind.OPERATION_DEFINITION) operations.push(definition);
    }
    const name = request.operationName;
    const chosen = name ? operations.filter((op) => op.name?.value === name) : operations;
    if (chosen.length !== 1 || chosen[0].operation !== 'query') unplannable();
    this.operation = chosen[0];
  }

  plan(): SqlPlan {
    const { schema } = this.request;
    const coerced = getVariableValues(schema, this.operation.variableDefinitions ?? [], this.request.variables ?? {}, { maxErrors: 1 });
    if (coerced.errors) unplannable();
    this.variables = coerced.coerced!;
    const queryType = schema.getQueryType()!;
    const roots = collectFields(schema, this.fragments, this.variables, queryType, this.operation.selectionSet);
    // each root once, behind OFFSET 0 so that PostgreSQL does not inline (and run) it twice
    const found: string[] = [];
    const data = this.object(queryType, roots, (name, nodes) => {
      found.push(this.root(name, nodes));
      return `r${found.length}.v`;
    });
    const from = found.map((root, i) => `(SELECT ${root} AS v OFFSET 0) r${i + 1}`).join(' CROSS JOIN ');
    const sql = found.length
      ? `SELECT CASE WHEN ${found.map((_, i) => `r${i + 1}.v IS NULL`).join(' OR ')} THEN NULL ELSE ${data}::text END AS data FROM ${from}`
      : `SELECT ${data}::text AS data`;
    return { sql, params: this.params };
  }

  /** A root that is not found is NULL, which sends the whole operation to the resolvers (their not_found). */
  private root(name: string, nodes: readonly FieldNode[]): string {
    const args = this.args(this.request.schema.getQueryType()!, nodes);
    const owner = this.param(this.request.ownerId, 'text');
    if (name === 'project') {
      const p = this.alias('p');
      const id = this.param(this.projectId(args.id, 'id'), 'int');
      return `(SELECT ${this.project(p, this.subfields('Project', nodes))} FROM projects ${p} WHERE ${p}.id = ${id} AND ${p}.owner_id = ${owner})`;
    }
    if (name === 'wallet') {
      const w = this.alias('w');
      if (!UuidRule.safeParse(args.id).success) unplannable();
      const id = this.param(args.id, 'uuid');
      return `(SELECT ${this.wallet(w, this.subfields('Wallet', nodes))} FROM wallets ${w} WHERE ${w}.id = ${id} AND ${w}.owner_id = ${owner})`;
    }
    if (name === 'wallets') {
      const p = this.alias('p');
      const id = this.param(this.projectId(args.projectId, 'projectId'), 'int');
      const type = getNamedType(this.request.schema.getQueryType()!.getFields().wallets.type) as GraphQLObjectType;
      return `(SELECT ${this.wallets(p, args, type, nodes)} FROM projects ${p} WHERE ${p}.id = ${id} AND ${p}.owner_id = ${owner})`;
    }
    return unplannable();
  }

  private project(p: string, fields: Fields): string {
    const type = this.type('Project');
    return this.object(type, fields, (name, nodes) => {
      switch (name) {
        case 'id':
          return `${p}.id::text`;
        case 'name':
          return `${p}.name`;
        case 'type':
          return `${p}.type`;
        case 'assetId':
          return `${p}.asset_id`;
        case 'owner':
          return `${p}.owner_id`;
        case 'supportExchangeRate':
          return `${p}.support_exchange_rate`;
        case 'createdAt':
          return isoTimeSql(`${p}.created_at`);
        case 'updatedAt':
          return isoTimeSql(`${p}.updated_at`);
        case 'wallets':
          return this.wallets(p, this.args(type, nodes), getNamedType(type.getFields().wallets.type) as GraphQLObjectType, nodes);
        default:
          return unplannable();
      }
    });
  }

  /** A page of project `p`'s wallets, as Project.wallets and Query.wallets read it (walletsOf). */
  private wallets(p: string, args: Record<string, unknown>, connection: GraphQLObjectType, nodes: readonly FieldNode[]): string {
    const first = this.first(args.first);
    const after = this.cursor(args.after);
    const type = args.type === undefined || args.type === null ? 'NULL::text' : this.param(args.type, 'text');
    const afterSeq = after === null ? 'NULL::bigint' : this.param(after, 'bigint');
    const w = this.alias('w');
    return this.connection(connection, nodes, {
      rows: `SELECT w.*, row_number() OVER (ORDER BY w.seq) AS n FROM (
               SELECT * FROM wallets w WHERE ${walletsOfProject(`${p}.id`, type)} AND (${afterSeq} IS NULL OR w.seq > ${afterSeq})
                ORDER BY w.seq LIMIT ${first + 1}) w`,
      row: w,
      first,
      hasPreviousPage: after !== null,
      newestFirst: false,
      node: (fields) => this.wallet(w, fields),
      totalCount: `(SELECT count(*) FROM wallets w WHERE ${walletsOfProject(`${p}.id`, type)})`,
    });
  }

  private wallet(w: string, fields: Fields): string {
    const type = this.type('Wallet');
    return this.object(type, fields, (name, nodes) => {
      switch (name) {
        case 'id':
          return `${w}.id`;
        case 'projectId':
          return `${w}.project_id::text`;
        case 'address':
          return `${w}.address`;
        case 'type':
        case 'status':
          return this.enumValue(type, name, `${w}.${name}`);
        case 'createdAt':
          return isoTimeSql(`${w}.created_at`);
        case 'updatedAt':
          return isoTimeSql(`${w}.updated_at`);
        case 'balances':
          return this.balances(w, this.subfields('Balance', nodes));
        case 'transactions':
          return this.transactions(w, this.args(type, nodes), getNamedType(type.getFields().transactions.type) as GraphQLObjectType, nodes);
        default:
          return unplannable();
      }
    });
  }

  /** Wallet.balances: one entry per currency of the wallet's project, zero included (LedgerRepository.balances). */
  private balances(w: string, fields: Fields): string {
    const balance = this.object(this.type('Balance'), fields, (name) => {
      switch (name) {
        case 'account':
          return `${w}.address`;
        case 'currency':
          return 'a.symbol';
        case 'assetId':
          return 'a.id';
        case 'balance':
          return minorToDecimalSql(`coalesce((SELECT b.amount FROM balances b WHERE b.wallet_id = ${w}.id AND b.asset_id = a.id), 0)`, 'a.fractions');
        default:
          return unplannable();
      }
    });
    return `(SELECT coalesce(json_agg(${balance} ORDER BY ${CURRENCY_ORDER}), '[]'::json)
               FROM projects p ${PROJECT_CURRENCIES}
              WHERE p.id = ${w}.project_id)`;
  }

  /** Wallet.transactions: the newest first, keyset-paged by `seq` (LedgerRepository.recent). */
  private transactions(w: string, args: Record<string, unknown>, connection: GraphQLObjectType, nodes: readonly FieldNode[]): string {
    const first = this.first(args.first);
    const after = this.cursor(args.after);
    const beforeSeq = after === null ? 'NULL::bigint' : this.param(after, 'bigint');
    return this.connection(connection, nodes, {
      rows: `SELECT t.*, row_number() OVER (ORDER BY t.seq DESC) AS n FROM (${recentOfWallet(`${w}.id`, beforeSeq, String(first + 1))}) t`,
      row: 't',
      joins: 'JOIN assets a ON a.id = t.asset_id',
      first,
      hasPreviousPage: after !== null,
      newestFirst: true,
      node: (fields) =>
        this.object(this.type('Transaction'), fields, (name) => {
          switch (name) {
            case 'id':
              return 't.id';
            case 'projectId':
              return 't.project_id::text';
            case 'amount':
              return minorToDecimalSql('t.amount', 'a.fractions');
            case 'currency':
              return 'a.symbol';
            case 'from':
              return `coalesce((SELECT wf.address FROM wallets wf WHERE wf.id = t.from_wallet_id), ${literalSql(MINT_ADDRESS)})`;
            case 'to':
              return '(SELECT wt.address FROM wallets wt WHERE wt.id = t.to_wallet_id)';
            case 'date':
              return isoTimeSql('t.created_at');
            case 'balance':
              return minorToDecimalSql(balanceAfter(`${w}.id`), 'a.fractions');
            default:
              return unplannable();
          }
        }),
      totalCount: transactionCountOf(`${w}.id`),
    });
  }

  /**
   * A Relay connection over `rows` (`first + 1` rows numbered `n` in page order, the extra one
   * telling a next page): edges, pageInfo and totalCount as toConnection/toPage print them.
   */
  private connection(type: GraphQLObjectType, nodes: readonly FieldNode[], page: ConnectionPage): string {
    const { first, row } = page;
    const inPage = `FILTER (WHERE ${row}.n <= ${first})`;
    const [startSeq, endSeq] = page.newestFirst ? [`max(${row}.seq) ${inPage}`, `min(${row}.seq) ${inPage}`] : [`min(${row}.seq) ${inPage}`, `max(${row}.seq) ${inPage}`];
    const json = this.object(type, this.collect(type, nodes), (name, fieldNodes) => {
      switch (name) {
        case 'edges': {
          const edgeType = getNamedType(type.getFields().edges.type) as GraphQLObjectType;
          const edge = this.object(edgeType, this.collect(edgeType, fieldNodes), (edgeField, edgeNodes) => {
            if (edgeField === 'cursor') return seqCursorSql(`${row}.seq`);
            if (edgeField === 'node') return page.node(this.collect(getNamedType(edgeType.getFields().node.type) as GraphQLObjectType, edgeNodes));
            return unplannable();
          });
          return `coalesce(json_agg(${edge} ORDER BY ${row}.n) ${inPage}, '[]'::json)`;
        }
        case 'pageInfo': {
          const info = getNamedType(type.getFields().pageInfo.type) as GraphQLObjectType;
          return this.object(info, this.collect(info, fieldNodes), (infoField) => {
            switch (infoField) {
              case 'hasNextPage':
                return `count(*) > ${first}`;
              case 'hasPreviousPage':
                return String(page.hasPreviousPage);
              case 'startCursor':
                return seqCursorSql(startSeq);
              case 'endCursor':
                return seqCursorSql(endSeq);
              default:
                return unplannable();
            }
          });
        }
        case 'totalCount':
          return page.totalCount;
        default:
          return unplannable();
      }
    });
    // GROUP BY (): one row, even when no aggregate is selected (only totalCount, say) or no row matches
    return `(SELECT ${json} FROM (${page.rows}) ${row} ${page.joins ?? ''} GROUP BY ())`;
  }

  /** `json_build_object` of the collected fields, in response order; `__typename` is the type's name. */
  private object(type: GraphQLObjectType, fields: Fields, valueOf: (name: string, nodes: readonly FieldNode[]) => string): string {
    const entries: [string, string][] = [];
    for (const [key, nodes] of fields) {
      const name = nodes[0].name.value;
      entries.push([key, name === '__typename' ? literalSql(type.name) : valueOf(name, nodes)]);
    }
    return jsonObjectSql(entries) ?? unplannable();
  }

  private enumValue(type: GraphQLObjectType, field: string, column: string): string {
    const enumType = getNamedType(type.getFields()[field].type);
    if (!(enumType instanceof GraphQLEnumType)) return unplannable();
    const cases = enumType.getValues().map((value) => `WHEN ${literalSql(String(value.value))} THEN ${literalSql(value.name)}`);
    return `CASE ${column} ${cases.join(' ')} END`;
  }

  private subfields(typeName: string, nodes: readonly FieldNode[]): Fields {
    return this.collect(this.type(typeName), nodes);
  }

  private collect(type: GraphQLObjectType, nodes: readonly FieldNode[]): Fields {
    return collectSubfields(this.request.schema, this.fragments, this.variables, type, nodes);
  }

  private args(parent: GraphQLObjectType, nodes: readonly FieldNode[]): Record<string, unknown> {
    const definition = parent.getFields()[nodes[0].name.value];
    if (!definition) unplannable();
    try {
      return getArgumentValues(definition, nodes[0], this.variables);
    } catch {
      return unplannable();
    }
  }

  private type(name: string): GraphQLObjectType {
    const type = this.request.schema.getType(name);
    return type instanceof GraphQLObjectType ? type : unplannable();
  }

  /** The resolvers' checks, without their errors: a value they would refuse is theirs to answer. */
  private projectId(value: unknown, field: string): number {
    try {
      const id = projectIdOf(value as string, field);
      return ProjectIdRule.safeParse(id).success ? id : unplannable();
    } catch {
      return unplannable();
    }
  }

  private first(value: unknown): number {
    try {
      return checkFirst(value as number, this.request.maxPageSize);
    } catch {
      return unplannable();
    }
  }

  private cursor(value: unknown): string | null {
    try {
      return decodeCursor('seq', value as string | null | undefined);
    } catch {
      return unplannable();
    }
  }

  private param(value: unknown, type: string): string {
    this.params.push(value);
    return `$${this.params.length}::${type}`;
  }

  private alias(prefix: string): string {
    this.aliases += 1;
    return `${prefix}_${this.aliases}`;
  }
}

interface ConnectionPage {
  /** A subquery of at most `first + 1` rows, numbered `n` from 1 in page order, with a `seq` column. */
  rows: string;
  /** Its alias, which `node` and `joins` refer to. */
  row: string;
  joins?: string;
  first: number;
  hasPreviousPage: boolean;
  newestFirst: boolean;
  node(fields: Fields): string;
  totalCount: string;
}
