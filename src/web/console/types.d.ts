// Types the console's modules share, for their JSDoc (`@import { Ctx } from './types.js'`): the
// REST answers as the service's OpenAPI document states them (clients/typescript/src/schema.d.ts,
// generated from it, its drift checked by test/clients/typescript/schema.test.ts), the GraphQL
// selections the console makes, and the context the shell hands each view. Types only: nothing
// here reaches the browser (src/web/assets.ts serves the folder's .js, .css and .svg files).
import type { components, operations } from '../../../clients/typescript/src/schema.js';
import type { Client, FormattedExecutionResult, createClient } from 'graphql-ws';

type Schemas = components['schemas'];

/** The JSON body an operation answers with on success (200, or 201 for a creation). */
export type Answer<Op extends keyof operations> = operations[Op]['responses'] extends infer R
  ? R extends { 200: { content: { 'application/json': infer B } } }
    ? B
    : R extends { 201: { content: { 'application/json': infer B } } }
      ? B
      : never
  : never;

export type Project = Schemas['Project'];
export type Plan = Schemas['Plan'];
export type Asset = Schemas['Asset'];
export type Hold = Schemas['Hold'];
export type Transaction = Schemas['Transaction'];
export type WebhookEndpoint = Schemas['WebhookEndpoint'];
export type WebhookDelivery = Schemas['WebhookDelivery'];
export type BalanceMonitor = Schemas['BalanceMonitor'];
export type LimitUsage = Schemas['LimitUsage'];
export type LedgerEvent = Schemas['Event'];
export type Wallet = Schemas['Wallet'];
export type BalanceCrossing = Schemas['BalanceCrossing'];
export type Analytics = Answer<'getProjectAnalytics'>;

/** GraphQL's Decimal: major units, as a string. */
export type Decimal = string;

/** A wallet's balance in one currency, as the console selects it over GraphQL (BALANCE_FIELDS). */
export interface GqlBalance {
  currency: string;
  balance: Decimal;
  held: Decimal;
  available: Decimal;
  /** The credit line (CONTRACT §28); selected by the wallet page only. */
  creditLimit?: Decimal;
  /** Pending holds to the wallet (CONTRACT §26); selected on the wallet page only. */
  incoming?: Decimal;
}

export type WalletTypeName = 'CUSTOMER' | 'SYSTEM';
export type WalletStatusName = 'ACTIVE' | 'SUSPENDED' | 'CLOSED';

/** The wallet fields a walletChanged message carries (live.js). */
export interface GqlWalletChange {
  id: string;
  status: WalletStatusName;
  balances: GqlBalance[];
}

/** A wallet as the wallets list selects it. */
export interface GqlWallet extends GqlWalletChange {
  address: string;
  type: WalletTypeName;
}

/** One wallet as its view selects it: the wallet, its balances and its latest history. */
export interface GqlWalletWithHistory extends GqlWallet {
  createdAt: string;
  transactions: { edges: { node: GqlHistoryEntry }[] };
}

/** A GraphQL transaction as a wallet's history selects it. */
export interface GqlHistoryEntry {
  id: string;
  amount: Decimal;
  currency: string;
  from: string;
  to: string;
  date: string;
  balance: Decimal | null;
}

/** A ledgerEvents message (live.js): the event, its time as `createdAt`. */
export interface GqlLedgerEvent {
  id: string;
  seq: number;
  type: LedgerEvent['type'];
  projectId: string;
  data: LedgerEvent['data'];
  createdAt: string;
}

/** What the shell (console.js) hands each view: the key's projects, the chosen one, its plan, the route's parameters. */
export interface Ctx {
  projects: Project[];
  project: Project | null;
  plan: Plan | null;
  /** The hash's parts after the view's name: `#/wallets/<id>` → [id]. */
  params: string[];
  readonly projectId: number | null;
  /** Opens this hash (again, when it is the current one). */
  go(hash: string): unknown;
  reloadProjects(selectId: string | number | null): Promise<void>;
}

/** A view module: mount() fills `view` and returns its clean-up (subscriptions, timers), if it has one. */
export interface ViewModule {
  mount(view: HTMLElement, ctx: Ctx): (() => void) | void;
}

/** A graphql-ws client (live.js). */
export type WsClient = Client;

/** A subscription's message: `data` with the selection, or errors. */
export type WsResult<Data> = FormattedExecutionResult<Data>;

/** The api_key store of api.js, as live.js reads it. */
export interface KeySource {
  get(): string;
}

declare global {
  /** graphql-ws's browser build, /static/graphql-ws.js, loaded by the page before the console. */
  const graphqlWs: { createClient: typeof createClient } | undefined;
}

/** What el() appends: nodes and text; null, undefined and false are left out; arrays are flattened. */
export type Child = Node | string | null | undefined | false | readonly Child[];

/** el()'s attributes: `on<event>` a listener; true an empty attribute; false, null and undefined none. */
export type Attrs = Record<string, string | number | boolean | null | undefined | ((event: Event) => unknown)>;

/** A column of dataTable (table.js): `value` is what sorts (default row[key]), `render` what shows (default the value). */
export interface Column<R> {
  key: string;
  label: string;
  num?: boolean;
  value?(row: R): unknown;
  render?(row: R): Child;
  /** The cell's data-field, for a cell a live change rewrites in place. */
  field?(row: R): string;
}

/** A table's order: the column's key, 1 ascending, -1 descending. */
export interface Sort {
  key: string;
  dir: 1 | -1;
}

/** A field of a dialog form (dialog.js). */
export interface FieldSpec {
  name: string;
  label: string;
  type?: 'text' | 'number' | 'select' | 'checkbox' | 'datetime-local' | 'url';
  required?: boolean;
  /** [value, label] pairs of a select. */
  options?: [string, string][];
  value?: string | boolean;
  hint?: string | null;
  step?: string;
  min?: string;
  inputmode?: string | null;
  placeholder?: string;
}

/** A submitted form: each field's trimmed text, or a checkbox's state. */
export type FormValues = Record<string, string | boolean>;

/** A wallet group's roll-up in one currency, as the groups view selects it (CONTRACT §29). */
export interface GqlGroupBalance {
  currency: string;
  balance: Decimal;
  held: Decimal | null;
  available: Decimal | null;
  wallets: number;
}

/** A wallet group as the groups view selects it: its roll-up and its direct subgroups' (view-groups.js). */
export interface GqlGroup {
  id: string;
  name: string;
  balances: GqlGroupBalance[];
  groups?: GqlGroup[];
}
