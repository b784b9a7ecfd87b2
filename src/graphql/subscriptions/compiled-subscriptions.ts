import { createSourceEventStream, subscribe, type DocumentNode, type ExecutionArgs, type ExecutionResult } from 'graphql';
import { mergesConditionalFields } from '../conditional-merge.js';
import { withGraphQLErrors } from '../execution-gateway.js';
import { compileDocument, isCompiled } from '../jit.js';
import { CompiledDocuments, INTERPRETER, type Compiled } from '../compiled-documents.js';

/** Compiled subscription documents kept, by what they keep (their text is their key), least recently used out first. */
export const COMPILED_SUBSCRIPTION_BYTES = 8 * 1024 * 1024;

/**
 * Runs subscription documents with graphql-jit instead of graphql-js's `subscribe` (graphql-ws's
 * `subscribe` option). graphql-ws executes the selection once per event per subscription; in a
 * burst (10,000 `hold.expired` in a second, CONTRACT §16) graphql-js's interpreter — building an
 * execution context, coercing the variables and walking the document again for every event — is
 * most of the CPU an instance spends per message. A document is compiled once (cached by its text
 * and operation name, as HTTP's execution-gateway.ts does) into a function run per event; the
 * resolvers, the context (auth, the subscriber's feed) and so each message stay exactly the same.
 * The documents graphql-jit would execute wrongly (conditional-merge.ts) keep the interpreter.
 */
export class CompiledSubscriptions {
  private readonly compiled: CompiledDocuments;
  /** Each admitted document's text (the cache key), set when the subscribe message is checked. */
  private readonly keys = new WeakMap<DocumentNode, string>();

  constructor(maxBytes = COMPILED_SUBSCRIPTION_BYTES) {
    this.compiled = new CompiledDocuments(maxBytes);
  }

  /** Remembers the text `document` was parsed from, so its compiled form is found again. */
  admit(document: DocumentNode, query: string): void {
    this.keys.set(document, query);
  }

  async subscribe(args: ExecutionArgs): Promise<AsyncIterable<ExecutionResult> | ExecutionResult> {
    const query = await this.compile(args);
    if (query === INTERPRETER) return subscribe(args);
    if (!isCompiled(query)) return withGraphQLErrors(query);
    // The event stream is opened by graphql-js, as before (the field's arguments, access checks,
    // errors); graphql-jit's own subscribe passes the variables as the field's arguments.
    const stream = await createSourceEventStream(args);
    if (!isAsyncIterable(stream)) return stream;
    const variables = args.variableValues ?? {};
    return mapped(stream, (event) => query.query(event, args.contextValue, variables));
  }

  private async compile(args: ExecutionArgs): Promise<Compiled | ExecutionResult> {
    const text = this.keys.get(args.document);
    const key = text === undefined ? undefined : `${text}\u0000${args.operationName ?? ''}`;
    const cached = key === undefined ? undefined : this.compiled.get(key);
    if (cached) return cached;
    const result = mergesConditionalFields(args.document) ? INTERPRETER : await compileDocument(args.schema, args.document, args.operationName);
    if (result !== INTERPRETER && !isCompiled(result)) return result;
    if (key !== undefined) this.compiled.set(key, result, args.document);
    return result;
  }
}

function isAsyncIterable<T>(value: unknown): value is AsyncIterable<T> {
  return typeof value === 'object' && value !== null && typeof (value as AsyncIterable<T>)[Symbol.asyncIterator] === 'function';
}

/** Each event executed into its message, with graphql's errors (withGraphQLErrors), as graphql-js maps a stream; `return` reaches the feed, so a completed subscription detaches. */
function mapped(source: AsyncIterable<unknown>, execute: (event: unknown) => ExecutionResult | Promise<ExecutionResult>): AsyncIterableIterator<ExecutionResult> {
  const iterator = source[Symbol.asyncIterator]() as AsyncIterator<unknown>;
  return {
    async next() {
      const step = await iterator.next();
      if (step.done) return { value: undefined, done: true };
      try {
        return { value: withGraphQLErrors(await execute(step.value)), done: false };
      } catch (error) {
        await iterator.return?.();
        throw error;
      }
    },
    async return() {
      await iterator.return?.();
      return { value: undefined, done: true };
    },
    async throw(error: unknown) {
      await iterator.return?.();
      throw error;
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}
