// `npm run client:generate`: builds the service's OpenAPI document in process (no server, no
// database) and turns it into clients/typescript/src/schema.d.ts with openapi-typescript.
//
//   node dist/clients/typescript/scripts/generate.js <file>   writes the types to <file>
//   node dist/clients/typescript/scripts/generate.js          prints them (the drift test compares)
import { writeFileSync } from 'node:fs';
import { registerHooks } from 'node:module';

// openapi-typescript prints its output with the TypeScript 5 compiler API. The project's compiler
// is TypeScript 7, a native binary without that API, so openapi-typescript's `typescript` is the
// `typescript5` alias of package.json (npm cannot nest a root package's peer under it).
registerHooks({
  resolve: (specifier, context, next) => next(specifier === 'typescript' && context.parentURL?.includes('/openapi-typescript/') ? 'typescript5' : specifier, context),
});

const { default: openapiTS, astToString } = await import('openapi-typescript');
const { openApiDocument } = await import('../../../src/rest/index.js');

const HEADER = `/**
 * Generated from the ledger service's OpenAPI document by openapi-typescript: do not edit.
 * Regenerate with \`npm run client:generate\` (a test fails when this file drifts).
 */

`;

const ast = await openapiTS(openApiDocument() as unknown as Parameters<typeof openapiTS>[0], { silent: true });
const types = HEADER + astToString(ast);
const target = process.argv[2];
if (target) {
  writeFileSync(target, types);
  process.stderr.write(`wrote ${target}\n`);
} else {
  process.stdout.write(types);
}
