/**
 * Random read-only queries over the subset of the schema that SQL plans answer (src/graphql/sql-plan):
 * project, wallet and wallets at the root; their plain fields, balances, wallets and transactions
 * connections; aliases, inline and named fragments, @skip/@include, variables for every argument.
 * Every query is valid and within the operation limits (src/graphql/limits), so the resolvers
 * answer it without errors and a plan can answer it too.
 */

/** mulberry32: a tiny seeded PRNG, so every run sends the same queries. */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface Pools {
  projectIds: string[];
  walletIds: string[];
  /** Cursors of wallets connections and of transactions connections (both `seq` cursors). */
  walletCursors: string[];
  transactionCursors: string[];
}

export interface GeneratedQuery {
  query: string;
  variables: Record<string, unknown>;
}

export function randomQueries(seed: number, count: number, pools: Pools): GeneratedQuery[] {
  const random = mulberry32(seed);
  return Array.from({ length: count }, () => new QueryBuilder(random, pools).build());
}

type TypeName = 'Project' | 'Wallet' | 'Balance' | 'Transaction' | 'PageInfo' | 'WalletConnection' | 'RecentTransactionConnection' | 'WalletEdge' | 'TransactionEdge';
type Shape = 'object' | 'list' | 'connection';
interface Child {
  field: string;
  type: TypeName;
  shape: Shape;
  /** Page arguments of a connection; wallets connections also take `type`. */
  walletType?: boolean;
}

const LEAVES: Record<TypeName, string[]> = {
  Project: ['id', 'name', 'type', 'assetId', 'owner', 'supportExchangeRate', 'createdAt', 'updatedAt', '__typename'],
  Wallet: ['id', 'projectId', 'address', 'type', 'status', 'createdAt', 'updatedAt', '__typename'],
  Balance: ['account', 'currency', 'assetId', 'balance', 'held', 'available', '__typename'],
  Transaction: ['id', 'projectId', 'amount', 'currency', 'from', 'to', 'date', 'balance', 'reverses', 'reversedAmount', 'reference', '__typename'],
  PageInfo: ['hasNextPage', 'hasPreviousPage', 'startCursor', 'endCursor', '__typename'],
  WalletConnection: ['totalCount', '__typename'],
  RecentTransactionConnection: ['totalCount', '__typename'],
  WalletEdge: ['cursor', '__typename'],
  TransactionEdge: ['cursor', '__typename'],
};

const CHILDREN: Record<TypeName, Child[]> = {
  Project: [{ field: 'wallets', type: 'WalletConnection', shape: 'connection', walletType: true }],
  Wallet: [
    { field: 'balances', type: 'Balance', shape: 'list' },
    { field: 'transactions', type: 'RecentTransactionConnection', shape: 'connection' },
  ],
  Balance: [],
  Transaction: [],
  PageInfo: [],
  WalletConnection: [
    { field: 'edges', type: 'WalletEdge', shape: 'object' },
    { field: 'pageInfo', type: 'PageInfo', shape: 'object' },
  ],
  RecentTransactionConnection: [
    { field: 'edges', type: 'TransactionEdge', shape: 'object' },
    { field: 'pageInfo', type: 'PageInfo', shape: 'object' },
  ],
  WalletEdge: [{ field: 'node', type: 'Wallet', shape: 'object' }],
  TransactionEdge: [{ field: 'node', type: 'Transaction', shape: 'object' }],
};

/** Below the default budget of 10,000 (cost.ts); the estimate here counts skipped fields too, so it is never lower. */
const COST_BUDGET = 9_000;
/** The document may hold 30 aliases; voluntary ones stop earlier, so forced ones still fit. */
const VOLUNTARY_ALIASES = 20;
const MAX_ALIASES = 30;
/** Aliases that are other fields' names, so response keys and field names disagree. */
const CONFUSING_ALIASES = ['id', 'name', 'node', 'edges', 'balance', 'wallets', 'totalCount', 'cursor'];
const PAGE_SIZES = [0, 1, 2, 3, 5, 20, 25, 26, 99, 100];
/** The cost model's factor for a list without `first` (balances). */
const UNPAGED_LIST_SIZE = 10;

interface Piece {
  text: string;
  cost: number;
}

interface Entry {
  signature: string;
  child: Scope;
}

/**
 * Response keys of one object. A key may repeat only for the same field with the same arguments,
 * whose selections GraphQL merges, so the repeated field shares the child scope. A named
 * fragment gets a scope of its own over the enclosing one: it records the keys the fragment
 * uses, so the fragment can be spread again wherever none of them is taken.
 */
class Scope {
  readonly own = new Map<string, Entry>();
  constructor(private readonly outer?: Scope) {}

  get(key: string): Entry | undefined {
    return this.own.get(key) ?? this.outer?.get(key);
  }

  set(key: string, entry: Entry): void {
    this.own.set(key, entry);
    this.outer?.set(key, entry);
  }
}

interface Fragment {
  name: string;
  type: TypeName;
  cost: number;
  keys: Map<string, Entry>;
}

class QueryBuilder {
  private readonly definitions: string[] = [];
  private readonly variables: Record<string, unknown> = {};
  private readonly fragments: Fragment[] = [];
  private readonly fragmentTexts: string[] = [];
  private aliases = 0;
  private names = 0;

  constructor(
    private readonly random: () => number,
    private readonly pools: Pools,
  ) {}

  build(): GeneratedQuery {
    const roots = this.pick([1, 1, 1, 1, 2, 2, 3]);
    const scope = new Scope();
    const parts: string[] = [];
    let cost = 0;
    for (let i = 0; i < roots; i++) {
      const piece = this.rootField(COST_BUDGET - cost, scope);
      parts.push(piece.text);
      cost += piece.cost;
    }
    const header = this.definitions.length ? `query Q(${this.definitions.join(', ')})` : this.pick(['', 'query', 'query Q']);
    const fragments = this.fragmentTexts.join('\n');
    const operation = `${header} {\n  ${parts.join('\n  ')}\n}`.trimStart();
    return { query: this.chance(0.5) ? `${operation}\n${fragments}` : `${fragments}\n${operation}`, variables: this.variables };
  }

  private rootField(budget: number, scope: Scope): Piece {
    const roll = this.random();
    if (roll < 0.08) return this.leaf('__typename', scope);
    const mark = this.definitions.length;
    if (roll < 0.4) return this.objectField('project', `(id: ${this.idArgument(this.pools.projectIds)})`, 'Project', 'object', budget, scope, mark);
    if (roll < 0.7) return this.objectField('wallet', `(id: ${this.idArgument(this.pools.walletIds)})`, 'Wallet', 'object', budget, scope, mark);
    const page = this.pageArguments(true);
    return this.objectField('wallets', `(projectId: ${this.idArgument(this.pools.projectIds)}${page.text})`, 'WalletConnection', 'connection', budget, scope, mark, page.first);
  }

  private selection(type: TypeName, budget: number, scope: Scope, nesting: number): Piece {
    const parts: string[] = [];
    let cost = 0;
    const count = this.pick([1, 1, 2, 2, 3, 4, 5]);
    for (let i = 0; i < count; i++) {
      const piece = this.item(type, budget - cost, scope, nesting);
      parts.push(piece.text);
      cost += piece.cost;
    }
    return { text: `{ ${parts.join(' ')} }`, cost };
  }

  private item(type: TypeName, budget: number, scope: Scope, nesting: number): Piece {
    const roll = this.random();
    if (roll < 0.05 && nesting < 2) return this.inlineFragment(type, budget, scope, nesting + 1);
    if (roll < 0.1 && nesting < 2) return this.fragmentSpread(type, budget, scope, nesting + 1);
    const children = CHILDREN[type].filter((child) => (child.shape === 'list' ? UNPAGED_LIST_SIZE : 1) <= budget);
    const objectChance = type === 'Project' || type === 'Wallet' ? 0.3 : 0.55;
    if (children.length && this.chance(objectChance)) {
      const child = this.pick(children);
      const mark = this.definitions.length;
      const page = child.shape === 'connection' ? this.pageArguments(child.walletType ?? false) : { text: '', first: 0 };
      const args = page.text ? `(${page.text.slice(2)})` : '';
      const share = Math.floor(budget * (0.4 + 0.6 * this.random()));
      return this.objectField(child.field, args, child.type, child.shape, share, scope, mark, page.first);
    }
    // mostly a field not selected here yet: repeats are merged, and a few of them are enough
    const leaves = LEAVES[type];
    const fresh = leaves.filter((field) => scope.get(field) === undefined);
    return this.leaf(this.pick(fresh.length && this.chance(0.85) ? fresh : leaves), scope);
  }

  private leaf(field: string, scope: Scope): Piece {
    const key = this.responseKey(field, field, scope);
    if (key === null) return this.leaf('__typename', scope);
    return { text: `${key.prefix}${field}${this.directive()}`, cost: 0 };
  }

  /**
   * An object, a list (balances) or a connection, priced as src/graphql/limits/cost.ts does. When
   * no key is left, a __typename takes its place and the variables of its arguments (defined
   * since `mark`) are dropped: an unused variable is a validation error.
   */
  private objectField(field: string, args: string, type: TypeName, shape: Shape, budget: number, scope: Scope, mark: number, first = 0): Piece {
    const key = this.responseKey(field, field + args, scope);
    const times = shape === 'list' ? UNPAGED_LIST_SIZE : shape === 'connection' ? Math.max(first, 1) : 1;
    // a connection costs at least one a row of its page, whatever is selected of it: one that does not fit is left out
    if (key === null || (shape === 'connection' && budget < 1 + times)) {
      for (const definition of this.definitions.splice(mark)) delete this.variables[definition.slice(1, definition.indexOf(':'))];
      return this.leaf('__typename', scope);
    }
    const childBudget = shape === 'list' ? Math.floor(budget / UNPAGED_LIST_SIZE) - 1 : shape === 'connection' ? Math.floor((budget - 1) / times) : budget - 1;
    const selection = this.selection(type, childBudget, key.child, 0);
    const cost = shape === 'list' ? UNPAGED_LIST_SIZE * (1 + selection.cost) : shape === 'connection' ? 1 + times * Math.max(selection.cost, 1) : 1 + selection.cost;
    return { text: `${key.prefix}${field}${args}${this.directive()} ${selection.text}`, cost };
  }

  private inlineFragment(type: TypeName, budget: number, scope: Scope, nesting: number): Piece {
    const condition = this.chance(0.6) ? ` on ${type}` : '';
    const selection = this.selection(type, budget, scope, nesting);
    return { text: `...${condition}${this.directive()} ${selection.text}`, cost: selection.cost };
  }

  /** Spreads a fragment already defined for this type when none of its keys is taken here, else defines one. */
  private fragmentSpread(type: TypeName, budget: number, scope: Scope, nesting: number): Piece {
    const reusable = this.fragments.filter((f) => f.type === type && f.cost <= budget && [...f.keys.keys()].every((key) => scope.get(key) === undefined));
    let fragment: Fragment;
    if (reusable.length && this.chance(0.5)) {
      fragment = this.pick(reusable);
      for (const [key, entry] of fragment.keys) scope.set(key, entry);
    } else {
      const local = new Scope(scope);
      const selection = this.selection(type, budget, local, nesting);
      fragment = { name: `F${++this.names}`, type, cost: selection.cost, keys: local.own };
      this.fragments.push(fragment);
      this.fragmentTexts.push(`fragment ${fragment.name} on ${type} ${selection.text}`);
    }
    return { text: `...${fragment.name}${this.directive()}`, cost: fragment.cost };
  }

  /**
   * The key a field answers under: its name or an alias. A key already taken by another field or
   * other arguments forces a fresh alias; null when the alias limit leaves none.
   */
  private responseKey(field: string, signature: string, scope: Scope): { prefix: string; child: Scope } | null {
    let key = field;
    if (this.aliases < VOLUNTARY_ALIASES && this.chance(0.2)) key = this.chance(0.3) ? this.pick(CONFUSING_ALIASES) : `a${++this.names}`;
    let entry = scope.get(key);
    if (entry && entry.signature !== signature) {
      if (this.aliases >= MAX_ALIASES) return null;
      key = `a${++this.names}`;
      entry = undefined;
    }
    entry ??= { signature, child: new Scope() };
    scope.set(key, entry);
    if (key !== field) this.aliases += 1;
    return { prefix: key === field ? '' : `${key}: `, child: entry.child };
  }

  private directive(): string {
    if (!this.chance(0.12)) return '';
    const name = this.pick(['skip', 'include']);
    const value = this.chance(0.5);
    if (this.chance(0.5)) return ` @${name}(if: ${value})`;
    if (this.chance(0.8)) return ` @${name}(if: ${this.variable('Boolean!', value)})`;
    return ` @${name}(if: ${this.defaultedVariable('Boolean', value)})`;
  }

  /** `, first: …, after: …` (and `type` for wallets), with the page size the arguments amount to. */
  private pageArguments(walletType: boolean): { text: string; first: number } {
    let text = '';
    if (walletType && this.chance(0.5)) {
      const type = this.pick(['CUSTOMER', 'SYSTEM', 'CUSTOMER', 'SYSTEM', null]);
      text += `, type: ${this.chance(0.7) ? String(type) : this.optionalVariable('WalletType', type)}`;
    }
    let first = 20; // the arguments' default
    if (this.chance(0.85)) {
      const size = this.pageSize(this.chance(0.6) ? this.pick(PAGE_SIZES) : this.int(0, 100));
      text += `, first: ${size.text}`;
      first = size.first;
    }
    if (this.chance(0.35)) {
      const own = walletType ? this.pools.walletCursors : this.pools.transactionCursors;
      const other = walletType ? this.pools.transactionCursors : this.pools.walletCursors;
      const cursor = this.chance(0.1) ? null : this.pick(this.chance(0.9) ? own : other);
      text += `, after: ${this.chance(0.5) ? JSON.stringify(cursor) : this.optionalVariable('String', cursor)}`;
    }
    return { text, first };
  }

  /**
   * A page size as a literal or a variable. `Int = d` may be left out (then d); a left-out `Int`
   * without default gives the argument's default, 20.
   */
  private pageSize(first: number): { text: string; first: number } {
    const roll = this.random();
    if (roll < 0.6) return { text: String(first), first };
    if (roll < 0.8) return { text: this.variable('Int!', first), first };
    if (roll < 0.9) return { text: this.defaultedVariable('Int', first), first };
    const name = `$v${++this.names}`;
    this.definitions.push(`${name}: Int`);
    return { text: name, first: 20 };
  }

  private idArgument(ids: string[]): string {
    const id = this.pick(ids);
    return this.chance(0.6) ? JSON.stringify(id) : this.variable('ID!', id);
  }

  private variable(type: string, value: unknown): string {
    const name = `$v${++this.names}`;
    this.definitions.push(`${name}: ${type}`);
    this.variables[name.slice(1)] = value;
    return name;
  }

  /** A variable whose default is the value, sent or left out. */
  private defaultedVariable(type: string, value: unknown): string {
    const name = `$v${++this.names}`;
    this.definitions.push(`${name}: ${type} = ${JSON.stringify(value)}`);
    if (this.chance(0.5)) this.variables[name.slice(1)] = value;
    return name;
  }

  /** A nullable variable: null is left out half of the time (both mean the argument's default). */
  private optionalVariable(type: string, value: unknown): string {
    const name = `$v${++this.names}`;
    this.definitions.push(`${name}: ${type}`);
    if (value !== null || this.chance(0.5)) this.variables[name.slice(1)] = value;
    return name;
  }

  private chance(p: number): boolean {
    return this.random() < p;
  }

  private int(min: number, max: number): number {
    return min + Math.floor(this.random() * (max - min + 1));
  }

  private pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.random() * items.length)];
  }
}
