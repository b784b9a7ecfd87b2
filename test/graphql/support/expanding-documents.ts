/**
 * Documents that are small to send but huge once their fragments are expanded (CONTRACT §18):
 * fragment F0 spreads F1 twice, F1 spreads F2 twice, … so the expanded selection doubles with
 * every level. 24 levels are 923 bytes as HTTP sends them and 2^24 fields expanded.
 */
export type ChainVariant = 'spreads' | 'fields' | 'aliases' | 'inline' | 'nested' | 'subscription';

export interface Judged {
  name: string;
  transport: 'http' | 'websocket';
  query: string;
}

export function fragmentChain(levels: number, variant: ChainVariant): string {
  const onType = variant === 'subscription' ? 'Subscription' : variant === 'nested' ? 'Wallet' : 'Query';
  const leaf = variant === 'subscription' ? 'walletChanged(walletId: "x") { id }' : variant === 'nested' ? 'id' : 'plan { planCode }';
  const beside = variant === 'fields' ? ` ${leaf}` : variant === 'aliases' ? ` a: plan { planCode } b: plan { planCode }` : '';
  const twice = (next: string) => (variant === 'inline' ? `... on ${onType} { ...${next} } ... on ${onType} { ...${next} }` : `...${next} ...${next}`);
  const operation = variant === 'subscription' ? 'subscription { ...F0 }' : variant === 'nested' ? 'query { wallet(id: "x") { ...F0 } }' : 'query { ...F0 }';
  const fragments = Array.from({ length: levels }, (_, i) => `fragment F${i} on ${onType} { ${twice(`F${i + 1}`)}${beside} }`);
  return [operation, ...fragments, `fragment F${levels} on ${onType} { ${leaf} }`].join(' ');
}

/** Every variant at every level, on the transport that serves it. */
export function chains(levels: readonly number[], variants: readonly ChainVariant[]): Judged[] {
  return levels.flatMap((n) => variants.map((variant) => ({ name: `${variant} × ${n}`, transport: variant === 'subscription' ? 'websocket' : 'http', query: fragmentChain(n, variant) }) as Judged));
}

/** No fragments, but quadratic for graphql's OverlappingFieldsCanBeMerged: one response key selected 1,200 times. */
export const SAME_KEY_MANY_TIMES = `{ ${'plan { planCode } '.repeat(1_200)} }`;
