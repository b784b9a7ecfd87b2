import { composeServices } from '@apollo/composition';
import { parse } from 'graphql';

export interface SubgraphSource {
  name: string;
  /** Where the gateway reaches it over HTTP (queries, mutations, `_entities`). */
  url: string;
  sdl: string;
}

/**
 * Composes a Federation 2 supergraph offline with `@apollo/composition` (what `rover supergraph
 * compose` does), for Hive Gateway or Apollo Router. Throws with every composition error.
 */
export function composeSupergraph(subgraphs: SubgraphSource[]): string {
  const result = composeServices(subgraphs.map(({ name, url, sdl }) => ({ name, url, typeDefs: parse(sdl) })));
  if (result.errors?.length || !result.supergraphSdl) {
    throw new Error(`supergraph composition failed:\n${(result.errors ?? []).map((e) => `- ${e.message}`).join('\n')}`);
  }
  return result.supergraphSdl;
}
