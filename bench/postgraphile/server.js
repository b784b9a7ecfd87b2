// PostGraphile 5 peer arm: the amber preset in production mode (NODE_ENV=production, no
// GraphiQL, no explain, no watch), its own node:http server, a pg pool of POOL_SIZE (the
// service's 20), over the baseline's database plus bench/postgraphile/setup.sql.
// Env: DATABASE_URL, PORT, HOST, POOL_SIZE. Prints `listening on http://HOST:PORT` when ready.

import { createServer } from 'node:http';
import { postgraphile } from 'postgraphile';
import { grafserv } from 'postgraphile/grafserv/node';
import { PostGraphileAmberPreset } from 'postgraphile/presets/amber';
import { makePgService } from 'postgraphile/adaptors/pg';

if (process.env.NODE_ENV !== 'production') throw new Error('run PostGraphile with NODE_ENV=production (Grafast development mode is much slower)');

const preset = {
  extends: [PostGraphileAmberPreset],
  pgServices: [makePgService({ connectionString: process.env.DATABASE_URL, schemas: ['public'], poolConfig: { max: Number(process.env.POOL_SIZE ?? 20) } })],
  grafserv: { graphqlPath: '/graphql', graphiql: false, watch: false, websockets: false, outputDataAsString: true },
  grafast: { explain: false },
};

const pgl = postgraphile(preset);
const serv = pgl.createServ(grafserv);
const server = createServer();
server.keepAliveTimeout = 65_000;
serv.addTo(server).catch((error) => {
  process.stderr.write(`${error.stack ?? error}\n`);
  process.exit(1);
});
await pgl.getSchema(); // build the schema before announcing readiness
const host = process.env.HOST ?? '127.0.0.1';
server.listen(Number(process.env.PORT ?? 0), host, () => process.stdout.write(`listening on http://${host}:${server.address().port}\n`));

const shutdown = () => {
  server.close(() => pgl.release().finally(() => process.exit(0)));
  server.closeIdleConnections();
  setTimeout(() => process.exit(0), 5000).unref();
};
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);
