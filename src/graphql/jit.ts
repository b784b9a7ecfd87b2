import type { DocumentNode, ExecutionResult, GraphQLSchema } from 'graphql';
import type * as GraphQLJit from 'graphql-jit';
import type { CompiledQuery } from 'graphql-jit';

/**
 * graphql-jit and what it brings (fast-json-stringify, ajv, fast-uri: about 0.45 MB of the bundle)
 * load when the first document is compiled, not at start-up: the second start is bound by this
 * thread's CPU, and nothing needs them before a GraphQL request. `preloadJit()` starts the load as
 * soon as the service listens (src/app.ts), so a first request rarely waits for it; one that does
 * awaits the same import and is answered as any other. A failed load is not kept: the next
 * document tries again.
 */
let loading: Promise<typeof GraphQLJit> | undefined;
let loaded: typeof GraphQLJit | undefined;

export function loadJit(): Promise<typeof GraphQLJit> {
  if (loaded) return Promise.resolve(loaded);
  loading ??= import('graphql-jit').then(
    (module) => (loaded = module),
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  );
  return loading;
}

/** Starts loading graphql-jit in the background; its failure is reported by the document that needs it. */
export function preloadJit(): void {
  loadJit().catch(() => undefined);
}

/** `document` compiled by graphql-jit (loaded first if need be), or the errors that keep it from compiling. */
export async function compileDocument(schema: GraphQLSchema, document: DocumentNode, operationName?: string | null): Promise<CompiledQuery | ExecutionResult> {
  const { compileQuery } = await loadJit();
  return compileQuery(schema, document, operationName ?? undefined);
}

/** graphql-jit's own isCompiledQuery, without loading graphql-jit: a compiled document has a `query` function. */
export function isCompiled(result: CompiledQuery | ExecutionResult): result is CompiledQuery {
  return 'query' in result && typeof result.query === 'function';
}
