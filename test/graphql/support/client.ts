import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { print } from 'graphql';
import type { HttpResult, TestApp } from '../../support/test-app.js';
import { statementsOf } from '../../support/statements.js';

export interface GraphQLErrorBody {
  message: string;
  path?: (string | number)[];
  extensions: { code: string; details: Record<string, unknown> };
}

export interface GraphQLBody<R> {
  data?: R | null;
  errors?: GraphQLErrorBody[];
}

export type GraphQLResult<R> = HttpResult<GraphQLBody<R>> & { statements: number };

const printed = new WeakMap<object, string>();

/** Runs a typed document (test/graphql/generated) over HTTP as the owner of `key`. */
export async function run<R, V>(t: TestApp, key: string, document: TypedDocumentNode<R, V>, variables: V, headers?: Record<string, string>): Promise<GraphQLResult<R>> {
  let query = printed.get(document);
  if (query === undefined) {
    query = print(document);
    printed.set(document, query);
  }
  const res = await t.graphql<GraphQLBody<R>>(key, query, variables as Record<string, unknown>, headers);
  return { ...res, statements: statementsOf(res) };
}

/** The data of a successful operation (throws with the errors otherwise). */
export async function data<R, V>(t: TestApp, key: string, document: TypedDocumentNode<R, V>, variables: V): Promise<R> {
  const res = await run(t, key, document, variables);
  if (res.body.errors?.length || !res.body.data) throw new Error(`GraphQL errors: ${JSON.stringify(res.body.errors ?? res.body)}`);
  return res.body.data;
}

/** An untyped operation (`_entities` is added by buildSubgraphSchema, so it is not in the committed SDL). */
export async function raw<R = any>(t: TestApp, key: string, query: string, variables?: Record<string, unknown>): Promise<GraphQLResult<R>> {
  const res = await t.graphql<GraphQLBody<R>>(key, query, variables);
  return { ...res, statements: statementsOf(res) };
}
