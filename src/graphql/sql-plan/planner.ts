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
import { balanceAfter, CURRENCY_ORDER, effectiveHeld, PROJECT_CURRENCIES, receiverAddress, recentOfWallet, transactionCountOf } from '../../domain/ledger/ledger.repository.js';
import { MINT_ADDRESS } from '../../domain/ledger/ledger.types.js';
import { minorToDecimalSql } from '../../domain/money.js';
import { walletsOfProject } from '../../domain/wallets/wallet.repository.js';
import { decodeCursor } from '../cursors.js';
import { projectIdOf } from '../ids.js';
import { checkFirst } from '../paging.js';
import { isoTimeSql, jsonArraySql, jsonObjectSql, jsonValueSql, literalSql, seqCursorSql } from './sql.js';
import { ProjectIdRule, UuidRule } from '../../domain/shared/ids.js';

/** One statement whose single column `data` is the operation's whole `data` as compact JSON text (NULL: answer with resolvers). */
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
 * the `wallet` and `wallets` roots, and federation's `_entities` of Wallets) into ONE SQL statement in which PostgreSQL builds the JSON
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

/** A UUID as PostgreSQL prints it (a wallet id); others are left to the resolvers' own reading. */
const CANONICAL_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

class Planner {
  private readonly params: unknown[] = [];
  private aliases = 0;
  private ownerParam: string | undefined;
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
    // The roots' existence first (primary-key lookups): a root not found sends the operation to
    // the resolvers, and CASE then builds none of the others for nothing.
    const exists: string[] = [];
    const data = this.object(queryType, roots, (name, nodes) => {
      const root = this.root(name, nodes);
      exists.push(root.exists);
      return root.json;
    });
    const sql = exists.length ? `SELECT CASE WHEN ${exists.join(' AND ')} THEN ${data} END AS data` : `SELECT ${data} AS data`;
    return { sql, params: this.params };
  }

  /** A root's JSON, and the condition that it exists (another owner's does not: the resolvers answer not_found). */
  private root(name: string, nodes: readonly FieldNode[]): { exists: string; json: string } {
    const args = this.args(this.request.schema.getQueryType()!, nodes);
    const owner = this.owner();
    if (name === 'project' || name === 'wallets') {
      const p = this.alias('p');
      const id = this.param(this.projectId(name === 'project' ? args.id : args.projectId, name === 'project' ? 'id' : 'projectId'), 'int');
      const json =
        name === 'project'
          ? this.project(p, this.subfields('Project', nodes))
          : this.wallets(p, args, getNamedType(this.request.schema.getQueryType()!.getFields().wallets.type) as GraphQLObjectType, nodes);
      return {
        exists: `EXISTS (SELECT 1 FROM projects WHERE id = ${id} AND owner_id = ${owner})`,
        json: `(SELECT ${json} FROM projects ${p} WHERE ${p}.id = ${id} AND ${p}.owner_id = ${owner})`,
      };
    }
    if (name === 'wallet') {
      const w = this.alias('w');
      if (!UuidRule.safeParse(args.id).success) unplannable();
      const id = this.param(args.id, 'uuid');
      return {
        exists: `EXISTS (SELECT 1 FROM wallets WHERE id = ${id} AND owner_id = ${owner})`,
        json: `(SELECT ${this.wallet(w, this.subfields('Wallet', nodes))} FROM wallets ${w} WHERE ${w}.id = ${id} AND ${w}.owner_id = ${owner})`,
      };
    }
    if (name === '_entities') return { exists: 'true', json: this.entities(args.representations, nodes, owner) };
    return unplannable();
  }

  /**
   * Federation's `_entities` over Wallet representations: each one's wallet, or null when it is
   * missing or another owner's, in the order given (as Wallet.__resolveReference). Any other
   * representation (another type, an id the loader would read differently) is the resolvers'.
   */
  private entities(representations: unknown, nodes: readonly FieldNode[], owner: string): string {
    if (!Array.isArray(representations)) return unplannable();
    const ids = representations.map((representation: { __typename?: unknown; id?: unknown } | null) =>
      representation?.__typename === 'Wallet' && typeof representation.id === 'string' && CANONICAL_UUID.test(representation.id) && UuidRule.safeParse(representation.id).success
        ? representation.id
        : unplannable(),
    );
    const w = this.alias('w');
    const wallet = `(SELECT ${this.wallet(w, this.subfields('Wallet', nodes))} FROM wallets ${w} WHERE ${w}.id = x.id AND ${w}.owner_id = ${owner})`;
    return `(SELECT ${jsonArraySql(`coalesce(${wallet}, 'null')`, 'x.ord')} FROM unnest(${this.param(ids, 'uuid[]')}) WITH ORDINALITY AS x(id, ord))`;
  }

  private project(p: string, fields: Fields): string {
    const type = this.type('Project');
    return this.object(type, fields, (name, nodes) => {
      switch (name) {
        case 'id':
          return jsonValueSql(`${p}.id::text`);
        case 'name':
          return jsonValueSql(`${p}.name`);
        case 'type':
          return jsonValueSql(`${p}.type`);
        case 'assetId':
          return jsonValueSql(`${p}.asset_id`);
        case 'owner':
          return jsonValueSql(`${p}.owner_id`);
        case 'supportExchangeRate':
          return jsonValueSql(`${p}.support_exchange_rate`);
        case 'createdAt':
          return jsonValueSql(isoTimeSql(`${p}.created_at`));
        case 'updatedAt':
          return jsonValueSql(isoTimeSql(`${p}.updated_at`));
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
          return jsonValueSql(`${w}.id`);
        case 'projectId':
          return jsonValueSql(`${w}.project_id::text`);
        case 'address':
          return jsonValueSql(`${w}.address`);
        case 'type':
        case 'status':
          return jsonValueSql(this.enumValue(type, name, `${w}.${name}`));
        case 'createdAt':
          return jsonValueSql(isoTimeSql(`${w}.created_at`));
        case 'updatedAt':
          return jsonValueSql(isoTimeSql(`${w}.updated_at`));
        case 'balances':
          this.present(this.args(type, nodes));
          return this.balances(w, this.subfields('Balance', nodes));
        case 'transactions':
          return this.transactions(w, this.present(this.args(type, nodes)), getNamedType(type.getFields().transactions.type) as GraphQLObjectType, nodes);
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
          return jsonValueSql(`${w}.address`);
        case 'currency':
          return jsonValueSql('a.symbol');
        case 'assetId':
          return jsonValueSql('a.id');
        case 'balance':
          return jsonValueSql(minorToDecimalSql(`coalesce((SELECT b.amount FROM balances b WHERE b.wallet_id = ${w}.id AND b.asset_id = a.id), 0)`, 'a.fractions'));
        // held and available as LedgerRepository.balances computes them (effectiveHeld: expired holds no longer count)
        case 'held':
          return jsonValueSql(minorToDecimalSql(`coalesce((SELECT ${effectiveHeld('b')} FROM balances b WHERE b.wallet_id = ${w}.id AND b.asset_id = a.id), 0)`, 'a.fractions'));
        case 'available':
          return jsonValueSql(minorToDecimalSql(`coalesce((SELECT b.amount - ${effectiveHeld('b')} FROM balances b WHERE b.wallet_id = ${w}.id AND b.asset_id = a.id), 0)`, 'a.fractions'));
        default:
          return unplannable();
      }
    });
    return `(SELECT ${jsonArraySql(balance, CURRENCY_ORDER)}
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
              return jsonValueSql('t.id');
            case 'projectId':
              return jsonValueSql('t.project_id::text');
            case 'amount':
              return jsonValueSql(minorToDecimalSql('t.amount', 'a.fractions'));
            case 'currency':
              return jsonValueSql('a.symbol');
            case 'from':
              return jsonValueSql(`coalesce((SELECT wf.address FROM wallets wf WHERE wf.id = t.from_wallet_id), ${literalSql(MINT_ADDRESS)})`);
            case 'to':
              return jsonValueSql(receiverAddress('(SELECT wt.address FROM wallets wt WHERE wt.id = t.to_wallet_id)'));
            case 'reverses':
              return jsonValueSql('t.reverses');
            case 'reversedAmount':
              return jsonValueSql(minorToDecimalSql('t.reversed_amount', 'a.fractions'));
            case 'reference':
              return jsonValueSql('t.reference');
            // metadata (json) stays with the resolvers: its text would have to match JSON.stringify's byte for byte
            case 'date':
              return jsonValueSql(isoTimeSql('t.created_at'));
            case 'balance':
              return jsonValueSql(minorToDecimalSql(balanceAfter(`${w}.id`), 'a.fractions'));
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
            if (edgeField === 'cursor') return jsonValueSql(seqCursorSql(`${row}.seq`));
            if (edgeField === 'node') return page.node(this.collect(getNamedType(edgeType.getFields().node.type) as GraphQLObjectType, edgeNodes));
            return unplannable();
          });
          return jsonArraySql(edge, `${row}.n`, inPage);
        }
        case 'pageInfo': {
          const info = getNamedType(type.getFields().pageInfo.type) as GraphQLObjectType;
          return this.object(info, this.collect(info, fieldNodes), (infoField) => {
            switch (infoField) {
              case 'hasNextPage':
                return jsonValueSql(`count(*) > ${first}`);
              case 'hasPreviousPage':
                return literalSql(String(page.hasPreviousPage));
              case 'startCursor':
                return jsonValueSql(seqCursorSql(startSeq));
              case 'endCursor':
                return jsonValueSql(seqCursorSql(endSeq));
              default:
                return unplannable();
            }
          });
        }
        case 'totalCount':
          return jsonValueSql(page.totalCount);
        default:
          return unplannable();
      }
    });
    // GROUP BY (): one row, even when no aggregate is selected (only totalCount, say) or no row matches
    return `(SELECT ${json} FROM (${page.rows}) ${row} ${page.joins ?? ''} GROUP BY ())`;
  }

  /** The JSON object of the collected fields, in response order; `__typename` is the type's name. */
  private object(type: GraphQLObjectType, fields: Fields, valueOf: (name: string, nodes: readonly FieldNode[]) => string): string {
    const entries: [string, string][] = [];
    for (const [key, nodes] of fields) {
      const name = nodes[0].name.value;
      entries.push([key, name === '__typename' ? literalSql(JSON.stringify(type.name)) : valueOf(name, nodes)]);
    }
    return jsonObjectSql(entries);
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

  /**
   * Reads as of a time (`asOf`, CONTRACT §14) are the resolvers': they refuse an instant before a
   * wallet existed per wallet, which one statement answering the whole operation cannot.
   */
  private present(args: Record<string, unknown>): Record<string, unknown> {
    return args.asOf === undefined || args.asOf === null ? args : unplannable();
  }

  /** The caller, one parameter for every root (created on first use: an unused parameter has no type). */
  private owner(): string {
    this.ownerParam ??= this.param(this.request.ownerId, 'text');
    return this.ownerParam;
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
