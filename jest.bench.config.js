/**
 * The measurements that run on jest's harness (bench/**\/*.bench.ts: `npm run bench:graphql`,
 * `npm run bench:as-of`): the same transform and global setup as the suite, outside `npm test`.
 */
import base from './jest.config.js';

export default { ...base, roots: ['<rootDir>/bench'], testMatch: ['**/bench/**/*.bench.ts'], maxWorkers: 1 };
