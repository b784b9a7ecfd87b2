import { isDryRunOnly } from '../../src/graphql/dry-run-only.js';

/** Which GraphQL bodies write nothing, so that an Idempotency-Key header on them claims nothing (src/graphql/dry-run-only.ts). */
describe('isDryRunOnly', () => {
  const transfer = (args: string) => `transfer(input: $input${args}) { id }`;
  it.each([
    ['a dry run written in the document', { query: `mutation($input: TransferInput!) { ${transfer(', dryRun: true')} }` }],
    ['a dry run by variable', { query: `mutation($input: TransferInput!, $d: Boolean) { ${transfer(', dryRun: $d')} }`, variables: { d: true } }],
    ['two dry runs, aliased', { query: `mutation($input: TransferInput!) { a: ${transfer(', dryRun: true')} b: ${transfer(', dryRun: true')} }` }],
    ['the named operation of several', { query: `query Q { plan { code } } mutation M($input: TransferInput!) { ${transfer(', dryRun: true')} }`, operationName: 'M' }],
  ])('yes: %s', (_name, body) => expect(isDryRunOnly(body)).toBe(true));

  it.each([
    ['a real mutation', { query: `mutation($input: TransferInput!) { ${transfer('')} }` }],
    ['dryRun false', { query: `mutation($input: TransferInput!) { ${transfer(', dryRun: false')} }` }],
    ['a variable not true', { query: `mutation($input: TransferInput!, $d: Boolean) { ${transfer(', dryRun: $d')} }`, variables: { d: 'true' } }],
    ['a dry run beside a real mutation', { query: `mutation($input: TransferInput!) { a: ${transfer(', dryRun: true')} b: ${transfer('')} }` }],
    ['a dry run beside __typename', { query: `mutation($input: TransferInput!) { __typename ${transfer(', dryRun: true')} }` }],
    ['a query', { query: '{ plan { code } }' }],
    ['several operations, none named', { query: `query Q { plan { code } } mutation M($input: TransferInput!) { ${transfer(', dryRun: true')} }` }],
    ['a document that does not parse', { query: 'mutation { transfer(' }],
    ['no query', { variables: {} }],
    ['not an object', 'mutation { x }'],
  ])('no: %s', (_name, body) => expect(isDryRunOnly(body)).toBe(false));
});
