import { getArgumentValues, getNamedType, GraphQLEnumType, GraphQLObjectType, type DocumentNode, type FieldNode, type FragmentDefinitionNode, type GraphQLSchema } from 'graphql';
import { collectSubfields } from 'graphql/execution/collectFields.js';
import { ProjectIdRule } from '../../domain/shared/ids.js';
import { decodeCursor } from '../cursors.js';
import { projectIdOf } from '../ids.js';
import { checkFirst } from '../paging.js';
import { jsonObjectSql, literalSql } from './sql.js';

export interface PlanRequest {
  schema: GraphQLSchema;
  document: DocumentNode;
  operationName: string | null | undefined;
  variables: Record<string, unknown> | undefined;
  /** The variables already coerced for the operation (by the cost check of planned-operations.ts): not coerced again. */
  coercedVariables?: Record<string, unknown>;
  ownerId: string;
  maxPageSize: number;
}

/** Anything the plan does not answer exactly as the resolvers would: they answer instead. */
export class Unplannable extends Error {}

export const unplannable = (): never => {
  throw new Unplannable();
};

/** A selection: response key → the field nodes collected under it (graphql-js's own collection). */
export type Fields = Map<string, readonly FieldNode[]>;

/**
 * What every part of a plan shares: the statement's parameters and aliases, the caller, and the
 * operation's fragments and coerced variables — with the GraphQL helpers that read selections
 * and arguments exactly as graphql-js does, and the resolvers' argument checks without their
 * errors (a value they would refuse is theirs to answer).
 */
export class PlanContext {
  readonly params: unknown[] = [];
  private aliases = 0;
  private ownerParam: string | undefined;

  constructor(
    readonly request: PlanRequest,
    private readonly fragments: Record<string, FragmentDefinitionNode>,
    private readonly variables: Record<string, unknown>,
  ) {}

  /** The JSON object of the collected fields, in response order; `__typename` is the type's name. */
  object(type: GraphQLObjectType, fields: Fields, valueOf: (name: string, nodes: readonly FieldNode[]) => string): string {
    const entries: [string, string][] = [];
    for (const [key, nodes] of fields) {
      const name = nodes[0].name.value;
      entries.push([key, name === '__typename' ? literalSql(JSON.stringify(type.name)) : valueOf(name, nodes)]);
    }
    return jsonObjectSql(entries);
  }

  /** The enum value of `column` as JSON text (its GraphQL name, quoted in the constants: no `to_json` per row); null outside the enum. */
  enumJson(type: GraphQLObjectType, field: string, column: string): string {
    const enumType = getNamedType(type.getFields()[field].type);
    if (!(enumType instanceof GraphQLEnumType)) return unplannable();
    const cases = enumType.getValues().map((value) => `WHEN ${literalSql(String(value.value))} THEN ${literalSql(JSON.stringify(value.name))}`);
    return `CASE ${column} ${cases.join(' ')} ELSE 'null' END`;
  }

  subfields(typeName: string, nodes: readonly FieldNode[]): Fields {
    return this.collect(this.type(typeName), nodes);
  }

  collect(type: GraphQLObjectType, nodes: readonly FieldNode[]): Fields {
    return collectSubfields(this.request.schema, this.fragments, this.variables, type, nodes);
  }

  args(parent: GraphQLObjectType, nodes: readonly FieldNode[]): Record<string, unknown> {
    const definition = parent.getFields()[nodes[0].name.value];
    if (!definition) unplannable();
    try {
      return getArgumentValues(definition, nodes[0], this.variables);
    } catch {
      return unplannable();
    }
  }

  type(name: string): GraphQLObjectType {
    const type = this.request.schema.getType(name);
    return type instanceof GraphQLObjectType ? type : unplannable();
  }

  /** The resolvers' checks, without their errors: a value they would refuse is theirs to answer. */
  projectId(value: unknown, field: string): number {
    try {
      const id = projectIdOf(value as string, field);
      return ProjectIdRule.safeParse(id).success ? id : unplannable();
    } catch {
      return unplannable();
    }
  }

  first(value: unknown): number {
    try {
      return checkFirst(value as number, this.request.maxPageSize);
    } catch {
      return unplannable();
    }
  }

  cursor(value: unknown): string | null {
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
  present(args: Record<string, unknown>): Record<string, unknown> {
    return args.asOf === undefined || args.asOf === null ? args : unplannable();
  }

  /** The caller, one parameter for every root (created on first use: an unused parameter has no type). */
  owner(): string {
    this.ownerParam ??= this.param(this.request.ownerId, 'text');
    return this.ownerParam;
  }

  param(value: unknown, type: string): string {
    this.params.push(value);
    return `$${this.params.length}::${type}`;
  }

  alias(prefix: string): string {
    this.aliases += 1;
    return `${prefix}_${this.aliases}`;
  }
}
