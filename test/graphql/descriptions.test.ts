import {
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isIntrospectionType,
  isObjectType,
  isSpecifiedDirective,
  isSpecifiedScalarType,
  type GraphQLArgument,
  type GraphQLSchema,
} from 'graphql';
import { buildLedgerSchema } from '../../src/graphql/schema.js';

/**
 * What `buildSubgraphSchema` (@apollo/subgraph) adds to every subgraph: the federation spec's own
 * types, fields and directives, described (or not) by the library and read by gateways, not by
 * consumers of this API. GraphQL's built-in scalars and directives and the introspection types
 * are skipped too: graphql-js describes them.
 */
const FEDERATION_TYPES = new Set(['_Any', '_Entity', '_Service', 'link__Purpose', 'link__Import']);
const FEDERATION_QUERY_FIELDS = new Set(['_entities', '_service']);
const FEDERATION_DIRECTIVES = new Set(['link', 'key', 'shareable']);
/** The spec namespaces the rest of its elements under this prefix (federation__FieldSet, @federation__requires, …). */
const FEDERATION_PREFIX = 'federation__';

/**
 * Pointers at what consumers do not have: the service's contract (CONTRACT.md, "§14") and its
 * source files. A REST path (`GET /holds/{id}`) is public and may be named.
 */
const PRIVATE_POINTER = /CONTRACT|§|\.md\b|\.ts\b|\bsrc\//;

const isFederation = (name: string) => FEDERATION_TYPES.has(name) || name.startsWith(FEDERATION_PREFIX);

/** Every element of the schema a consumer sees, by schema coordinate, with its description. */
function describedElements(schema: GraphQLSchema): { coordinate: string; description: string | null | undefined }[] {
  const elements: { coordinate: string; description: string | null | undefined }[] = [];
  const args = (owner: string, list: readonly GraphQLArgument[]) => {
    for (const arg of list) elements.push({ coordinate: `${owner}(${arg.name}:)`, description: arg.description });
  };
  for (const type of Object.values(schema.getTypeMap())) {
    if (isIntrospectionType(type) || isSpecifiedScalarType(type) || isFederation(type.name)) continue;
    elements.push({ coordinate: type.name, description: type.description });
    if (isObjectType(type) || isInterfaceType(type)) {
      for (const field of Object.values(type.getFields())) {
        if (type === schema.getQueryType() && FEDERATION_QUERY_FIELDS.has(field.name)) continue;
        elements.push({ coordinate: `${type.name}.${field.name}`, description: field.description });
        args(`${type.name}.${field.name}`, field.args);
      }
    } else if (isInputObjectType(type)) {
      for (const field of Object.values(type.getFields())) elements.push({ coordinate: `${type.name}.${field.name}`, description: field.description });
    } else if (isEnumType(type)) {
      for (const value of type.getValues()) elements.push({ coordinate: `${type.name}.${value.name}`, description: value.description });
    }
  }
  for (const directive of schema.getDirectives()) {
    if (isSpecifiedDirective(directive) || FEDERATION_DIRECTIVES.has(directive.name) || isFederation(directive.name)) continue;
    elements.push({ coordinate: `@${directive.name}`, description: directive.description });
    args(`@${directive.name}`, directive.args);
  }
  return elements;
}

describe('the subgraph schema, as a reference for its consumers', () => {
  let elements: ReturnType<typeof describedElements>;
  beforeAll(async () => {
    elements = describedElements((await buildLedgerSchema()).schema);
  });

  it('walks the whole schema: root types, fields, arguments, input fields, enum values and scalars', () => {
    const coordinates = elements.map((element) => element.coordinate);
    expect(coordinates).toEqual(
      expect.arrayContaining(['Query', 'Query.transaction', 'Query.transaction(id:)', 'Mutation.transfer(input:)', 'TransferInput.amount', 'WalletType.CUSTOMER', 'Decimal', 'Subscription.ledgerEvents']),
    );
    expect(coordinates).not.toEqual(expect.arrayContaining(['_Any']));
    expect(coordinates.filter((coordinate) => coordinate.includes('_entities') || coordinate.includes('_service'))).toEqual([]);
  });

  // The failure lists every coordinate to describe, one a line: new types fail here until described.
  it('describes every element', () => {
    const missing = elements.filter((element) => !element.description?.trim()).map((element) => element.coordinate);
    expect(missing.join('\n')).toBe('');
  });

  it('points at nothing consumers do not have (the contract, source files)', () => {
    const pointing = elements.filter((element) => PRIVATE_POINTER.test(element.description ?? '')).map((element) => `${element.coordinate}: ${element.description}`);
    expect(pointing.join('\n')).toBe('');
  });
});
