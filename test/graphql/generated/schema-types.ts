export type Maybe<T> = T | null;
export type InputMaybe<T> = Maybe<T>;
/** All built-in and custom scalars, mapped to their actual values */
export type Scalars = {
  ID: { input: string; output: string; }
  String: { input: string; output: string; }
  Boolean: { input: boolean; output: boolean; }
  Int: { input: number; output: number; }
  Float: { input: number; output: number; }
  /** An ISO 8601 timestamp; printed in UTC with milliseconds, e.g. "2026-01-31T12:00:00.000Z"; read with Z or any offset. */
  DateTime: { input: string; output: string; }
  /** A decimal number in major units, printed as a string (e.g. "12.5"). Input: a string or a number. */
  Decimal: { input: string | number; output: string; }
  /** The `JSON` scalar type represents JSON values as specified by [ECMA-404](http://www.ecma-international.org/publications/files/ECMA-ST/ECMA-404.pdf). */
  JSON: { input: unknown; output: unknown; }
  /** The `JSONObject` scalar type represents JSON objects as specified by [ECMA-404](http://www.ecma-international.org/publications/files/ECMA-ST/ECMA-404.pdf). */
  JSONObject: { input: Record<string, unknown>; output: Record<string, unknown>; }
};

/** A currency of a project. */
export type Asset = {
  __typename?: 'Asset';
  createdAt: Scalars['DateTime']['output'];
  /** Seconds a credit to a customer wallet lives before its points expire; null: never. */
  expiresAfterSeconds?: Maybe<Scalars['Int']['output']>;
  /** Decimal places: one major unit is 10^fractions minor units. */
  fractions: Scalars['Int']['output'];
  id: Scalars['ID']['output'];
  name: Scalars['String']['output'];
  /** The owner (user id) of the asset. */
  owner: Scalars['String']['output'];
  project: Project;
  projectId: Scalars['ID']['output'];
  symbol: Scalars['String']['output'];
  updatedAt: Scalars['DateTime']['output'];
};

export type AssetConnection = {
  __typename?: 'AssetConnection';
  edges: Array<AssetEdge>;
  pageInfo: PageInfo;
  /** All items of the list, across pages. */
  totalCount: Scalars['Int']['output'];
};

export type AssetEdge = {
  __typename?: 'AssetEdge';
  cursor: Scalars['String']['output'];
  node: Asset;
};

/** A wallet's balance in one currency of its project (zero included). */
export type Balance = {
  __typename?: 'Balance';
  /** The wallet address. */
  account: Scalars['String']['output'];
  assetId: Scalars['ID']['output'];
  /** balance − held: what transfers, holds and reversals may spend. */
  available?: Maybe<Scalars['Decimal']['output']>;
  /** The posted balance, major units, as a decimal string. */
  balance: Scalars['Decimal']['output'];
  /** The asset symbol. */
  currency: Scalars['String']['output'];
  /** The balance's unexpired lots with something left, earliest expiry first (GET /wallets/{id}/lots); none for a system wallet. */
  expiring: Array<Lot>;
  /** Sum of the wallet's pending, unexpired holds as sender in this currency. */
  held?: Maybe<Scalars['Decimal']['output']>;
};


/** A wallet's balance in one currency of its project (zero included). */
export type BalanceExpiringArgs = {
  first?: InputMaybe<Scalars['Int']['input']>;
};

/** One leg of transferBatch. */
export type BatchTransferInput = {
  /** Major units, > 0, at most the asset's fractions decimals. */
  amount: Scalars['Decimal']['input'];
  /** An asset symbol of the project. */
  currency: Scalars['String']['input'];
  /** Sender: a wallet id or address in the project. */
  from: Scalars['String']['input'];
  metadata?: InputMaybe<Scalars['JSONObject']['input']>;
  reference?: InputMaybe<Scalars['String']['input']>;
  /** Receiver: a wallet id or address in the project. */
  to: Scalars['String']['input'];
};

export type CreateAssetInput = {
  /** Seconds a credit to a customer wallet lives, 1–315360000; absent or null: never expires. */
  expiresAfterSeconds?: InputMaybe<Scalars['Int']['input']>;
  /** 0–18. */
  fractions: Scalars['Int']['input'];
  /** 1–200 characters. */
  name: Scalars['String']['input'];
  projectId: Scalars['ID']['input'];
  /** 1–12 of A–Z 0–9 _ -, unique within the project. */
  symbol: Scalars['String']['input'];
};

export type CreateProjectInput = {
  /** An asset of another of your projects, shared as this project's primary currency. */
  assetId?: InputMaybe<Scalars['ID']['input']>;
  /** > 0, default 1. */
  exchangeRate?: InputMaybe<Scalars['Float']['input']>;
  /** At most 16 KiB serialised; default {}. */
  metadata?: InputMaybe<Scalars['JSONObject']['input']>;
  /** 1–200 characters after trimming. */
  name: Scalars['String']['input'];
  /** Default false. */
  supportExchangeRate?: InputMaybe<Scalars['Boolean']['input']>;
  /** Only "loyalty" (the default). */
  type?: InputMaybe<Scalars['String']['input']>;
};

export type CreateWalletInput = {
  /** 1–128 of A–Z a–z 0–9 . _ : @ - (not starting with @), unique within the project; generated when absent. */
  address?: InputMaybe<Scalars['String']['input']>;
  projectId: Scalars['ID']['input'];
};

export type DeleteAssetPayload = {
  __typename?: 'DeleteAssetPayload';
  deleted: Scalars['Boolean']['output'];
  id: Scalars['ID']['output'];
};

/** DELETE /limits/{id}. */
export type DeletedLimit = {
  __typename?: 'DeletedLimit';
  deleted: Scalars['Boolean']['output'];
  id: Scalars['ID']['output'];
};

/** A reservation of the sender's available funds for a later capture or void (CONTRACT §10). */
export type Hold = {
  __typename?: 'Hold';
  /** The amount reserved at creation (major units). */
  amount: Scalars['Decimal']['output'];
  /** The captured part (0 until captured). */
  capturedAmount: Scalars['Decimal']['output'];
  createdAt: Scalars['DateTime']['output'];
  /** The asset symbol. */
  currency: Scalars['String']['output'];
  expiresAt?: Maybe<Scalars['DateTime']['output']>;
  /** Address of the sender. */
  from: Scalars['String']['output'];
  id: Scalars['ID']['output'];
  metadata: Scalars['JSONObject']['output'];
  projectId: Scalars['ID']['output'];
  reference?: Maybe<Scalars['String']['output']>;
  status: HoldStatus;
  /** Address of the receiver. */
  to: Scalars['String']['output'];
  /** The capture's transaction. */
  transactionId?: Maybe<Scalars['ID']['output']>;
  updatedAt: Scalars['DateTime']['output'];
};

/** captureHold: the posted transaction (balance: the sender’s) and the captured hold. */
export type HoldCapture = {
  __typename?: 'HoldCapture';
  hold: Hold;
  transaction: Transaction;
};

export type HoldConnection = {
  __typename?: 'HoldConnection';
  edges: Array<HoldEdge>;
  pageInfo: PageInfo;
  /** All items of the list, across pages. */
  totalCount: Scalars['Int']['output'];
};

export type HoldEdge = {
  __typename?: 'HoldEdge';
  cursor: Scalars['String']['output'];
  node: Hold;
};

/** pending → captured | voided | expired (expired from the instant expiresAt passes). */
export type HoldStatus =
  | 'CAPTURED'
  | 'EXPIRED'
  | 'PENDING'
  | 'VOIDED';

/** A committed change (the outbox): `data` is the resource as REST shows it. */
export type LedgerEvent = {
  __typename?: 'LedgerEvent';
  createdAt: Scalars['DateTime']['output'];
  /** A transaction (the sender's balance), a hold, or a wallet without balances, as REST shows it. */
  data: Scalars['JSON']['output'];
  /** Also the `webhook-id` of its outbound deliveries. */
  id: Scalars['ID']['output'];
  projectId: Scalars['ID']['output'];
  /** Increases in commit order within the project (an integer; Float because it may pass 2³¹). */
  seq: Scalars['Float']['output'];
  /** transaction.posted, hold.created, hold.captured, hold.voided, hold.expired, wallet.status_changed or points.expired. */
  type: Scalars['String']['output'];
};

export type LedgerEventConnection = {
  __typename?: 'LedgerEventConnection';
  edges: Array<LedgerEventEdge>;
  pageInfo: PageInfo;
  /** All items of the list, across pages. */
  totalCount: Scalars['Int']['output'];
};

export type LedgerEventEdge = {
  __typename?: 'LedgerEventEdge';
  cursor: Scalars['String']['output'];
  node: LedgerEvent;
};

/** A spending (debit) or earning (credit) limit over a sliding window (CONTRACT §19). */
export type Limit = {
  __typename?: 'Limit';
  /** The most the wallet may move in the window (major units). */
  amount: Scalars['Decimal']['output'];
  createdAt: Scalars['DateTime']['output'];
  /** The asset symbol. */
  currency: Scalars['String']['output'];
  direction: LimitDirection;
  id: Scalars['ID']['output'];
  projectId: Scalars['ID']['output'];
  /** null: every customer wallet of the project. */
  walletId?: Maybe<Scalars['ID']['output']>;
  /** The window: (now − windowSeconds, now]. */
  windowSeconds: Scalars['Int']['output'];
};

export type LimitConnection = {
  __typename?: 'LimitConnection';
  edges: Array<LimitEdge>;
  pageInfo: PageInfo;
  /** All items of the list, across pages. */
  totalCount: Scalars['Int']['output'];
};

/** debit: money leaving the wallet; credit: money arriving. */
export type LimitDirection =
  | 'CREDIT'
  | 'DEBIT';

export type LimitEdge = {
  __typename?: 'LimitEdge';
  cursor: Scalars['String']['output'];
  node: Limit;
};

/** A limit that applies to the wallet now, with what it used and what remains (GET /wallets/{id}/limits). */
export type LimitUsage = {
  __typename?: 'LimitUsage';
  /** The most the wallet may move in the window (major units). */
  amount: Scalars['Decimal']['output'];
  createdAt: Scalars['DateTime']['output'];
  /** The asset symbol. */
  currency: Scalars['String']['output'];
  direction: LimitDirection;
  id: Scalars['ID']['output'];
  projectId: Scalars['ID']['output'];
  /** amount − used, never below 0. */
  remaining: Scalars['Decimal']['output'];
  /** Counted movements in the window, plus (debit) pending holds created in it. */
  used: Scalars['Decimal']['output'];
  /** null: every customer wallet of the project. */
  walletId?: Maybe<Scalars['ID']['output']>;
  /** The window: (now − windowSeconds, now]. */
  windowSeconds: Scalars['Int']['output'];
};

/** Points credited together to a customer wallet and expiring together (CONTRACT §15). */
export type Lot = {
  __typename?: 'Lot';
  /** Major units credited. */
  amount: Scalars['Decimal']['output'];
  createdAt: Scalars['DateTime']['output'];
  expiresAt: Scalars['DateTime']['output'];
  /** Major units left, points reserved by pending holds included. */
  remaining: Scalars['Decimal']['output'];
};

/** A metadata condition: the transaction's top-level metadata value for `key` is the string `value`, or the number or boolean whose JSON text it is. */
export type MetadataPair = {
  /** A top-level metadata key (1–128 characters). */
  key: Scalars['String']['input'];
  /** The text the value must be (or whose JSON text a number or boolean value must be), at most 1024 characters. */
  value: Scalars['String']['input'];
};

export type Mutation = {
  __typename?: 'Mutation';
  /** POST /holds/{id}/capture: posts `amount` (default: the whole hold) and releases the rest. */
  captureHold: HoldCapture;
  /** POST /assets. */
  createAsset: Asset;
  /** POST /holds: reserves the sender's available funds; nothing is posted. */
  createHold: Hold;
  /** POST /limits: at most 50 per project (quota_exceeded). */
  createLimit: Limit;
  /** POST /projects. */
  createProject: Project;
  /** POST /wallets/create/{type}. */
  createWallet: Wallet;
  /** DELETE /assets/{id}. */
  deleteAsset: DeleteAssetPayload;
  /** DELETE /limits/{id}. */
  deleteLimit: DeletedLimit;
  /** PUT /projects/{id}. */
  renameProject: Project;
  /** POST /transactions/{id}/reverse: back from the original's receiver to its sender (@mint for a seed); `balance` is the reversal's sender's. */
  reverseTransaction: Transaction;
  /** POST /transactions/seed: mints into a system wallet from @mint; `balance` is the seeded wallet's. */
  seed: Transaction;
  /** PUT /wallets/status/{id}. */
  setWalletStatus: Wallet;
  /** POST /transactions; `balance` is the sender's resulting balance. */
  transfer: Transaction;
  /** POST /transactions/batch: 1–100 transfers, all or none, in order; each `balance` is its sender's. */
  transferBatch: Array<Transaction>;
  /** PUT /assets/{id}. */
  updateAsset: Asset;
  /** POST /holds/{id}/void: releases a pending hold. */
  voidHold: Hold;
  /** POST /webhook: reward and redeem post a transfer; other flows are recorded. */
  webhook: WebhookResult;
};


export type MutationCaptureHoldArgs = {
  amount?: InputMaybe<Scalars['Decimal']['input']>;
  dryRun?: InputMaybe<Scalars['Boolean']['input']>;
  id: Scalars['ID']['input'];
  idempotencyKey?: InputMaybe<Scalars['String']['input']>;
  projectId: Scalars['ID']['input'];
};


export type MutationCreateAssetArgs = {
  idempotencyKey?: InputMaybe<Scalars['String']['input']>;
  input: CreateAssetInput;
};


export type MutationCreateHoldArgs = {
  amount: Scalars['Decimal']['input'];
  currency: Scalars['String']['input'];
  dryRun?: InputMaybe<Scalars['Boolean']['input']>;
  expiresIn?: InputMaybe<Scalars['Int']['input']>;
  from: Scalars['String']['input'];
  idempotencyKey?: InputMaybe<Scalars['String']['input']>;
  metadata?: InputMaybe<Scalars['JSONObject']['input']>;
  projectId: Scalars['ID']['input'];
  reference?: InputMaybe<Scalars['String']['input']>;
  to: Scalars['String']['input'];
};


export type MutationCreateLimitArgs = {
  amount: Scalars['Decimal']['input'];
  currency: Scalars['String']['input'];
  direction: LimitDirection;
  idempotencyKey?: InputMaybe<Scalars['String']['input']>;
  projectId: Scalars['ID']['input'];
  walletId?: InputMaybe<Scalars['String']['input']>;
  windowSeconds: Scalars['Int']['input'];
};


export type MutationCreateProjectArgs = {
  idempotencyKey?: InputMaybe<Scalars['String']['input']>;
  input: CreateProjectInput;
};


export type MutationCreateWalletArgs = {
  idempotencyKey?: InputMaybe<Scalars['String']['input']>;
  input: CreateWalletInput;
  type: WalletType;
};


export type MutationDeleteAssetArgs = {
  id: Scalars['ID']['input'];
  idempotencyKey?: InputMaybe<Scalars['String']['input']>;
};


export type MutationDeleteLimitArgs = {
  id: Scalars['ID']['input'];
};


export type MutationRenameProjectArgs = {
  id: Scalars['ID']['input'];
  idempotencyKey?: InputMaybe<Scalars['String']['input']>;
  name: Scalars['String']['input'];
};


export type MutationReverseTransactionArgs = {
  amount?: InputMaybe<Scalars['Decimal']['input']>;
  dryRun?: InputMaybe<Scalars['Boolean']['input']>;
  id: Scalars['ID']['input'];
  idempotencyKey?: InputMaybe<Scalars['String']['input']>;
  metadata?: InputMaybe<Scalars['JSONObject']['input']>;
  projectId: Scalars['ID']['input'];
  reference?: InputMaybe<Scalars['String']['input']>;
};


export type MutationSeedArgs = {
  dryRun?: InputMaybe<Scalars['Boolean']['input']>;
  idempotencyKey?: InputMaybe<Scalars['String']['input']>;
  input: SeedInput;
};


export type MutationSetWalletStatusArgs = {
  id: Scalars['ID']['input'];
  idempotencyKey?: InputMaybe<Scalars['String']['input']>;
  input: SetWalletStatusInput;
};


export type MutationTransferArgs = {
  dryRun?: InputMaybe<Scalars['Boolean']['input']>;
  idempotencyKey?: InputMaybe<Scalars['String']['input']>;
  input: TransferInput;
};


export type MutationTransferBatchArgs = {
  dryRun?: InputMaybe<Scalars['Boolean']['input']>;
  idempotencyKey?: InputMaybe<Scalars['String']['input']>;
  projectId: Scalars['ID']['input'];
  transfers: Array<BatchTransferInput>;
};


export type MutationUpdateAssetArgs = {
  id: Scalars['ID']['input'];
  idempotencyKey?: InputMaybe<Scalars['String']['input']>;
  input: UpdateAssetInput;
};


export type MutationVoidHoldArgs = {
  id: Scalars['ID']['input'];
  idempotencyKey?: InputMaybe<Scalars['String']['input']>;
  projectId: Scalars['ID']['input'];
};


export type MutationWebhookArgs = {
  idempotencyKey?: InputMaybe<Scalars['String']['input']>;
  input: WebhookInput;
};

/** Relay page information. */
export type PageInfo = {
  __typename?: 'PageInfo';
  endCursor?: Maybe<Scalars['String']['output']>;
  hasNextPage: Scalars['Boolean']['output'];
  hasPreviousPage: Scalars['Boolean']['output'];
  startCursor?: Maybe<Scalars['String']['output']>;
};

/** The caller's plan: quotas and feature flags. */
export type Plan = {
  __typename?: 'Plan';
  advancedAnalytics: Scalars['Boolean']['output'];
  apiCallsPerDay: Scalars['Int']['output'];
  assetsPerProject: Scalars['Int']['output'];
  customBranding: Scalars['Boolean']['output'];
  customerWallets: Scalars['Int']['output'];
  planCode: Scalars['String']['output'];
  prioritySupport: Scalars['Boolean']['output'];
  projects: Scalars['Int']['output'];
  subscriptionCode: Scalars['String']['output'];
  subscriptionStatus: Scalars['String']['output'];
  systemWallets: Scalars['Int']['output'];
  userId: Scalars['String']['output'];
};

/** A project of the caller: its currencies (assets) and wallets. */
export type Project = {
  __typename?: 'Project';
  /** The primary asset (own or shared). */
  asset?: Maybe<Asset>;
  /** The primary asset (own or shared), null until the project has one. */
  assetId?: Maybe<Scalars['ID']['output']>;
  /** The project's own assets, oldest first. */
  assets: AssetConnection;
  createdAt: Scalars['DateTime']['output'];
  exchangeRate: Scalars['Float']['output'];
  id: Scalars['ID']['output'];
  metadata: Scalars['JSONObject']['output'];
  name: Scalars['String']['output'];
  /** The owner (user id) of the project. */
  owner: Scalars['String']['output'];
  supportExchangeRate: Scalars['Boolean']['output'];
  /** The project's transactions matching every filter given, newest first (ties by commit order), as GET /transactions/search; `balance` is the `walletId` wallet's when given, else the sender's (a seed's: the seeded wallet's). */
  transactions: TransactionSearchConnection;
  /** Always "loyalty". */
  type: Scalars['String']['output'];
  updatedAt: Scalars['DateTime']['output'];
  /** The project's wallets (optionally of one type), oldest first. */
  wallets: WalletConnection;
};


/** A project of the caller: its currencies (assets) and wallets. */
export type ProjectAssetsArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  first?: Scalars['Int']['input'];
};


/** A project of the caller: its currencies (assets) and wallets. */
export type ProjectTransactionsArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  filter?: InputMaybe<TransactionFilter>;
  first?: Scalars['Int']['input'];
};


/** A project of the caller: its currencies (assets) and wallets. */
export type ProjectWalletsArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  first?: Scalars['Int']['input'];
  type?: InputMaybe<WalletType>;
};

export type ProjectConnection = {
  __typename?: 'ProjectConnection';
  edges: Array<ProjectEdge>;
  pageInfo: PageInfo;
  /** All items of the list, across pages. */
  totalCount: Scalars['Int']['output'];
};

export type ProjectEdge = {
  __typename?: 'ProjectEdge';
  cursor: Scalars['String']['output'];
  node: Project;
};

export type Query = {
  __typename?: 'Query';
  /** GET /assets/{id}. */
  asset?: Maybe<Asset>;
  /** Your assets, or one project's own assets, oldest first (GET /assets). */
  assets: AssetConnection;
  /** GET /events: a project's events oldest first; `after` is an `endCursor` or a `seq`. */
  events: LedgerEventConnection;
  /** GET /holds/{id}; null when missing or not yours. */
  hold?: Maybe<Hold>;
  /** GET /holds: a project's holds, newest first; walletId (id or address) matches either side. */
  holds: HoldConnection;
  /** GET /limits: a project's limits, oldest first; walletId (id or address) keeps that wallet's own limits only. */
  limits: LimitConnection;
  /** The caller's plan (same as GET /user/plan). */
  plan: Plan;
  /** One of your projects (GET /projects/{id}); another owner's: not_found. */
  project?: Maybe<Project>;
  /** Your projects, oldest first (GET /projects). */
  projects: ProjectConnection;
  /** GET /transactions: a wallet's balance in one currency (default: the project's primary) and its transactions in it, newest first. `walletId` is a wallet id, or an address in `projectId`. With `asOf`, as they were at that instant (CONTRACT §14). */
  transactions?: Maybe<TransactionHistory>;
  /** GET /wallets/{id}. */
  wallet?: Maybe<Wallet>;
  /** A project's wallets, optionally of one type, oldest first (GET /wallets/{type}?projectId=). */
  wallets: WalletConnection;
  /** A project's webhook events, oldest first. */
  webhookEvents: WebhookEventConnection;
};


export type QueryAssetArgs = {
  id: Scalars['ID']['input'];
};


export type QueryAssetsArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  first?: Scalars['Int']['input'];
  projectId?: InputMaybe<Scalars['ID']['input']>;
};


export type QueryEventsArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  first?: Scalars['Int']['input'];
  projectId: Scalars['ID']['input'];
};


export type QueryHoldArgs = {
  id: Scalars['ID']['input'];
};


export type QueryHoldsArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  first?: Scalars['Int']['input'];
  projectId: Scalars['ID']['input'];
  status?: InputMaybe<HoldStatus>;
  walletId?: InputMaybe<Scalars['String']['input']>;
};


export type QueryLimitsArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  first?: Scalars['Int']['input'];
  projectId: Scalars['ID']['input'];
  walletId?: InputMaybe<Scalars['String']['input']>;
};


export type QueryProjectArgs = {
  id: Scalars['ID']['input'];
};


export type QueryProjectsArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  first?: Scalars['Int']['input'];
};


export type QueryTransactionsArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  asOf?: InputMaybe<Scalars['DateTime']['input']>;
  currency?: InputMaybe<Scalars['String']['input']>;
  first?: Scalars['Int']['input'];
  projectId?: InputMaybe<Scalars['ID']['input']>;
  reference?: InputMaybe<Scalars['String']['input']>;
  walletId: Scalars['String']['input'];
};


export type QueryWalletArgs = {
  id: Scalars['ID']['input'];
};


export type QueryWalletsArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  first?: Scalars['Int']['input'];
  projectId: Scalars['ID']['input'];
  type?: InputMaybe<WalletType>;
};


export type QueryWebhookEventsArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  first?: Scalars['Int']['input'];
  projectId: Scalars['ID']['input'];
};

export type RecentTransactionConnection = {
  __typename?: 'RecentTransactionConnection';
  edges: Array<TransactionEdge>;
  pageInfo: PageInfo;
  /** All items of the list, across pages. */
  totalCount: Scalars['Int']['output'];
};

export type SeedInput = {
  /** Major units, > 0, at most the asset's fractions decimals. */
  amount: Scalars['Decimal']['input'];
  /** An asset symbol of the project. */
  currency: Scalars['String']['input'];
  metadata?: InputMaybe<Scalars['JSONObject']['input']>;
  projectId: Scalars['ID']['input'];
  reference?: InputMaybe<Scalars['String']['input']>;
  /** A system wallet id or address in the project. */
  to: Scalars['String']['input'];
};

export type SetWalletStatusInput = {
  /** The wallet's project (else not_found). */
  projectId: Scalars['ID']['input'];
  status: WalletStatus;
};

export type Subscription = {
  __typename?: 'Subscription';
  /** The project's events from now on, each once, in increasing `seq`; only the `types` listed when given (e.g. ["transaction.posted"]). */
  ledgerEvents?: Maybe<LedgerEvent>;
  /** The wallet, with its balances, after each change of its balances, holds or status (each event that touches it), from now on; with `initial: true`, the wallet as it is first. */
  walletChanged?: Maybe<Wallet>;
};


export type SubscriptionLedgerEventsArgs = {
  projectId: Scalars['ID']['input'];
  types?: InputMaybe<Array<Scalars['String']['input']>>;
};


export type SubscriptionWalletChangedArgs = {
  initial?: Scalars['Boolean']['input'];
  walletId: Scalars['ID']['input'];
};

/** A posted movement of one currency between two wallets (or from @mint). */
export type Transaction = {
  __typename?: 'Transaction';
  /** Major units, as a decimal string. */
  amount: Scalars['Decimal']['output'];
  /** The resulting balance, after this transaction, of the wallet whose history lists it (of the sender for `transfer`, of the seeded wallet for `seed`, as REST); null when the transaction is read by id. */
  balance?: Maybe<Scalars['Decimal']['output']>;
  /** The asset symbol. */
  currency: Scalars['String']['output'];
  /** Posting time. */
  date: Scalars['DateTime']['output'];
  /** Address of the sender; "@mint" for a seed. */
  from: Scalars['String']['output'];
  /** null for a seed (from @mint). */
  fromWallet?: Maybe<Wallet>;
  id: Scalars['ID']['output'];
  /** The caller's metadata ({} when none). */
  metadata: Scalars['JSONObject']['output'];
  projectId: Scalars['ID']['output'];
  /** The caller's reference, unique per project among transactions and holds. */
  reference?: Maybe<Scalars['String']['output']>;
  /** Major units reversed so far by later reversals of this one (0 for none). */
  reversedAmount: Scalars['Decimal']['output'];
  /** The original transaction this one reverses, or null. */
  reverses?: Maybe<Scalars['ID']['output']>;
  /** Address of the receiver; "@expired" for expired points. */
  to: Scalars['String']['output'];
  /** null for the reversal of a seed (back to @mint) and for an expiry (to @expired). */
  toWallet?: Maybe<Wallet>;
};

export type TransactionEdge = {
  __typename?: 'TransactionEdge';
  cursor: Scalars['String']['output'];
  node: Transaction;
};

/** Filters of Project.transactions, combined with AND (the filters of GET /transactions/search). */
export type TransactionFilter = {
  /** An asset symbol of the project (default: every currency). */
  currency?: InputMaybe<Scalars['String']['input']>;
  /** The sender: a wallet id or address of the project, or "@mint" (seeds). */
  from?: InputMaybe<Scalars['String']['input']>;
  /** Inclusive upper bound, major units. */
  maxAmount?: InputMaybe<Scalars['Decimal']['input']>;
  /** Metadata conditions, every one of which must hold. */
  metadata?: InputMaybe<Array<MetadataPair>>;
  /** Inclusive lower bound, major units; at most the currency's decimals (18 without `currency`). */
  minAmount?: InputMaybe<Scalars['Decimal']['input']>;
  /** The exact reference. */
  reference?: InputMaybe<Scalars['String']['input']>;
  /** References starting with this text, taken literally (`%` and `_` are no wildcards). */
  referencePrefix?: InputMaybe<Scalars['String']['input']>;
  /** The reversals of this transaction id. */
  reverses?: InputMaybe<Scalars['ID']['input']>;
  /** `date` ≥ since. */
  since?: InputMaybe<Scalars['DateTime']['input']>;
  /** The receiver: a wallet id or address of the project, "@expired" (expiries) or "@mint" (reversed seeds). */
  to?: InputMaybe<Scalars['String']['input']>;
  /** `date` < until. */
  until?: InputMaybe<Scalars['DateTime']['input']>;
  /** A wallet id or address of the project, on either side; `balance` is then its own. */
  walletId?: InputMaybe<Scalars['String']['input']>;
};

/** A wallet's balance in one currency and its transactions in it, newest first (GET /transactions). */
export type TransactionHistory = {
  __typename?: 'TransactionHistory';
  balance: Balance;
  edges: Array<TransactionEdge>;
  pageInfo: PageInfo;
  /** All items of the list, across pages. */
  totalCount: Scalars['Int']['output'];
};

/** A page of a project's transactions matching a filter, newest first (ties by commit order). */
export type TransactionSearchConnection = {
  __typename?: 'TransactionSearchConnection';
  /** The page: each transaction and its cursor. */
  edges: Array<TransactionEdge>;
  /** `endCursor` is the `after` of the next page; no gaps or repeats while postings go on. */
  pageInfo: PageInfo;
};

export type TransferInput = {
  /** Major units, > 0, at most the asset's fractions decimals. */
  amount: Scalars['Decimal']['input'];
  /** An asset symbol of the project. */
  currency: Scalars['String']['input'];
  /** Sender: a wallet id or address in the project. */
  from: Scalars['String']['input'];
  /** A JSON object of at most 4 KiB serialised. */
  metadata?: InputMaybe<Scalars['JSONObject']['input']>;
  projectId: Scalars['ID']['input'];
  /** Unique per project among transactions and holds: 1–128 of A–Z a–z 0–9 . _ : / # -. */
  reference?: InputMaybe<Scalars['String']['input']>;
  /** Receiver: a wallet id or address in the project. */
  to: Scalars['String']['input'];
};

export type UpdateAssetInput = {
  /** Seconds a credit to a customer wallet lives, 1–315360000; an explicit null means never (unlike other fields, null is not "unchanged"). Applies to credits posted after the change. */
  expiresAfterSeconds?: InputMaybe<Scalars['Int']['input']>;
  name?: InputMaybe<Scalars['String']['input']>;
  /** Optional; when given, the asset's project (else not_found). */
  projectId?: InputMaybe<Scalars['ID']['input']>;
  /** Fixed once the asset has transactions (conflict). */
  symbol?: InputMaybe<Scalars['String']['input']>;
};

/** A customer or system wallet of a project. */
export type Wallet = {
  __typename?: 'Wallet';
  address: Scalars['String']['output'];
  /** One entry per currency of the wallet's project, zero included. */
  balances: Array<Balance>;
  createdAt: Scalars['DateTime']['output'];
  id: Scalars['ID']['output'];
  /** GET /wallets/{id}/limits: the limits that apply to the wallet now, every currency and direction, with used and remaining. */
  limits: Array<LimitUsage>;
  project: Project;
  projectId: Scalars['ID']['output'];
  status: WalletStatus;
  /** The wallet's transactions in every currency, newest first. */
  transactions: RecentTransactionConnection;
  type: WalletType;
  updatedAt: Scalars['DateTime']['output'];
};


/** A customer or system wallet of a project. */
export type WalletBalancesArgs = {
  asOf?: InputMaybe<Scalars['DateTime']['input']>;
};


/** A customer or system wallet of a project. */
export type WalletTransactionsArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  asOf?: InputMaybe<Scalars['DateTime']['input']>;
  first?: Scalars['Int']['input'];
};

export type WalletConnection = {
  __typename?: 'WalletConnection';
  edges: Array<WalletEdge>;
  pageInfo: PageInfo;
  /** All items of the list, across pages. */
  totalCount: Scalars['Int']['output'];
};

export type WalletEdge = {
  __typename?: 'WalletEdge';
  cursor: Scalars['String']['output'];
  node: Wallet;
};

/** active ⇄ suspended; either → closed (only with zero balances); closed is final. */
export type WalletStatus =
  | 'ACTIVE'
  | 'CLOSED'
  | 'SUSPENDED';

export type WalletType =
  | 'CUSTOMER'
  | 'SYSTEM';

/** A stored webhook call, refused flows included (success false, message naming the error code). */
export type WebhookEvent = {
  __typename?: 'WebhookEvent';
  flowId: Scalars['String']['output'];
  id: Scalars['ID']['output'];
  message: Scalars['String']['output'];
  projectId: Scalars['ID']['output'];
  receivedAt: Scalars['DateTime']['output'];
  success: Scalars['Boolean']['output'];
  /** The transaction a reward or redeem posted. */
  transactionId?: Maybe<Scalars['ID']['output']>;
  values: Scalars['JSONObject']['output'];
};

export type WebhookEventConnection = {
  __typename?: 'WebhookEventConnection';
  edges: Array<WebhookEventEdge>;
  pageInfo: PageInfo;
  /** All items of the list, across pages. */
  totalCount: Scalars['Int']['output'];
};

export type WebhookEventEdge = {
  __typename?: 'WebhookEventEdge';
  cursor: Scalars['String']['output'];
  node: WebhookEvent;
};

export type WebhookInput = {
  /** "reward", "redeem", or any other flow (recorded only). */
  flowId: Scalars['String']['input'];
  projectId: Scalars['ID']['input'];
  values: Scalars['JSONObject']['input'];
};

export type WebhookResult = {
  __typename?: 'WebhookResult';
  message: Scalars['String']['output'];
  success: Scalars['Boolean']['output'];
};
