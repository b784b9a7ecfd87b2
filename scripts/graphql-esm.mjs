// What every import and require() of graphql in the bundle resolves to (scripts/build.mjs, `alias`):
// graphql's own ES modules (its .mjs files), so the bundle holds one graphql, scope-hoisted. By
// default esbuild takes graphql's CommonJS files and wraps them in `__toESM` once per ES module
// importing it: 89 copies of its ≈ 400 exports at every start (≈ 55 ms of CPU). The CommonJS
// packages that require() it (federation) still get `__toCommonJS` copies, one per file.
//
// Two copies of graphql would break it at run time ("Cannot use GraphQLSchema from another module
// or realm"), so every path is listed: esbuild maps `graphql/<rest>` through the `graphql` alias
// too (to index.mjs/<rest>, which does not exist), so a deep path missing here fails the build
// instead of bundling graphql's CommonJS copy beside the ES one.
const mjs = (rest) => `./node_modules/graphql/${rest}.mjs`;

/** esbuild `alias` entries: graphql and the deep paths the bundled packages import, to their .mjs. */
export const GRAPHQL_ESM = {
  graphql: mjs('index'),
  'graphql/error/index.js': mjs('error/index'),
  'graphql/execution/collectFields.js': mjs('execution/collectFields'),
  'graphql/execution/execute.js': mjs('execution/execute'),
  'graphql/execution/values.js': mjs('execution/values'),
  'graphql/jsutils/Path.js': mjs('jsutils/Path'),
  'graphql/utilities/index.js': mjs('utilities/index'),
  'graphql/validation': mjs('validation/index'),
  'graphql/validation/specifiedRules': mjs('validation/specifiedRules'),
  'graphql/validation/validate': mjs('validation/validate'),
};
