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
  /** An amount of money in major units of its currency, printed as a string without exponent and without trailing zeros (1250 minor units of a 2-decimal asset: "12.5"), so that no amount passes through a float. Input: a string or a number ("12.50", 12.5), with at most the asset's decimals. */
  Decimal: { input: string | number; output: string; }
  /** Any JSON value (an object, an array, a string, a number, a boolean or null). */
  JSON: { input: unknown; output: unknown; }
  /** A JSON object (metadata, webhook values). In a document literal, a number must be exactly what a double says it is; pass the object in a variable to keep every digit of any number. */
  JSONObject: { input: Record<string, unknown>; output: Record<string, unknown>; }
};

/** One UTC day or hour of a program’s flows, major units. */
export type AnalyticsBucket = {
  __typename?: 'AnalyticsBucket';
  /** Customer wallets on either side of a posting in the bucket. */
  activeWallets: Scalars['Int']['output'];
  /** Expired in the bucket: customer → @expired. */
  expired: Scalars['Decimal']['output'];
  /** Issued in the bucket: system wallet or @mint → customer wallet. */
  issued: Scalars['Decimal']['output'];
  /** Redeemed in the bucket: customer → system wallet. */
  redeemed: Scalars['Decimal']['output'];
  /** The amount of reversal transactions in the bucket, of any parties (also counted in their class). */
  reversed: Scalars['Decimal']['output'];
  /** The bucket’s first instant (a UTC day or hour start); the bucket ends where the next begins. */
  start: Scalars['DateTime']['output'];
  /** Transferred in the bucket: customer → customer wallet. */
  transferred: Scalars['Decimal']['output'];
};

/** The flows over [since, until) (the sums of the series) and the liability at `until`; major units. */
export type AnalyticsTotals = {
  __typename?: 'AnalyticsTotals';
  /** Customer → @expired. */
  expired: Scalars['Decimal']['output'];
  /** System wallet or @mint → customer wallet. */
  issued: Scalars['Decimal']['output'];
  /** The customer wallets’ total balance at `until`. */
  outstanding: Scalars['Decimal']['output'];
  /** outstanding ÷ exchangeRate, 2 decimals (half away from zero); null without supportExchangeRate. */
  outstandingValue?: Maybe<Scalars['Decimal']['output']>;
  /** Customer → system wallet. */
  redeemed: Scalars['Decimal']['output'];
  /** Reversal transactions of any parties (also counted in their class). */
  reversed: Scalars['Decimal']['output'];
  /** Customer → customer wallet. */
  transferred: Scalars['Decimal']['output'];
};

/** A currency of a project (points, credits, coins): its symbol names it in transactions and balances, its `fractions` say how amounts are written. A project's first asset becomes its primary one. */
export type Asset = {
  __typename?: 'Asset';
  /** When the asset was created. */
  createdAt: Scalars['DateTime']['output'];
  /** Seconds a credit to a customer wallet lives before its remaining points expire (leave to @expired); null: never. A change applies to credits posted after it. */
  expiresAfterSeconds?: Maybe<Scalars['Int']['output']>;
  /** Decimal places of amounts, 0–18: an amount has at most this many digits after the point (2: "12.50" is fine, "12.505" is refused). */
  fractions: Scalars['Int']['output'];
  /** The asset's id (a UUID). */
  id: Scalars['ID']['output'];
  /** Display name, 1–200 characters. */
  name: Scalars['String']['output'];
  /** The user id that owns the asset (its project's owner, the owner of the API key that created it). */
  owner: Scalars['String']['output'];
  /** The project the asset belongs to. */
  project: Project;
  /** The id of the project the asset belongs to. */
  projectId: Scalars['ID']['output'];
  /** The code that names the currency in transactions and balances (`currency`): 1–12 of A–Z 0–9 _ -, unique within the project. */
  symbol: Scalars['String']['output'];
  /** When the asset was last changed (its creation, if never). */
  updatedAt: Scalars['DateTime']['output'];
};

/** A page of assets, oldest first (creation order). */
export type AssetConnection = {
  __typename?: 'AssetConnection';
  /** The page's items, each with its cursor, in the list's order. */
  edges: Array<AssetEdge>;
  /** Whether more items follow, and the cursor to read them. */
  pageInfo: PageInfo;
  /** How many items the whole list holds, across every page (whatever `first` and `after`). */
  totalCount: Scalars['Int']['output'];
};

/** One Asset of a page, with its position in the list. */
export type AssetEdge = {
  __typename?: 'AssetEdge';
  /** An opaque position in the list: pass it as `after` to read the items that follow this one. */
  cursor: Scalars['String']['output'];
  /** The Asset. */
  node: Asset;
};

/** A wallet's balance in one currency of its project (a currency never used by the wallet shows "0"). */
export type Balance = {
  __typename?: 'Balance';
  /** The wallet's address. */
  account: Scalars['String']['output'];
  /** The asset's id. */
  assetId: Scalars['ID']['output'];
  /** balance − held + creditLimit, in major units: what transfers, new holds and reversals may spend; below zero only when a credit line was lowered below its use. Null on a balance read with `asOf`. */
  available?: Maybe<Scalars['Decimal']['output']>;
  /** The posted balance, in major units: every credit minus every debit. Below zero only with a credit line (down to −creditLimit). */
  balance: Scalars['Decimal']['output'];
  /** The credit line in this currency, in major units (0 without one): the balance may go down to −creditLimit (setCreditLine). Null on a balance read with `asOf`. */
  creditLimit?: Maybe<Scalars['Decimal']['output']>;
  /** The asset's symbol. */
  currency: Scalars['String']['output'];
  /** The balance's unexpired lots with something left, earliest expiry first (as GET /wallets/{id}/lots): when its points expire. Empty for a system wallet and for an asset that never expires. */
  expiring: Array<Lot>;
  /** In major units, what the wallet's pending, unexpired holds as sender reserve in this currency; null on a balance read with `asOf` (it describes the present). */
  held?: Maybe<Scalars['Decimal']['output']>;
  /** In major units, the sum of the pending holds *to* the wallet in this currency (maturing or not): what it may receive; `balance`, `held` and `available` do not count it. Null on a balance read with `asOf`. */
  incoming?: Maybe<Scalars['Decimal']['output']>;
};


/** A wallet's balance in one currency of its project (a currency never used by the wallet shows "0"). */
export type BalanceExpiringArgs = {
  first?: InputMaybe<Scalars['Int']['input']>;
};

/** A threshold on a wallet’s (or every customer wallet’s) balance or available funds in one currency: each committed change that makes `field operator value` true writes one `balance.threshold_crossed` event. */
export type BalanceMonitor = {
  __typename?: 'BalanceMonitor';
  /** When the monitor was created (creating one fires nothing). */
  createdAt: Scalars['DateTime']['output'];
  /** The asset symbol. */
  currency: Scalars['String']['output'];
  /** The value watched: balance or available. */
  field: MonitorField;
  /** The monitor’s id (for deleteBalanceMonitor). */
  id: Scalars['ID']['output'];
  /** The comparison with `value`. */
  operator: MonitorOperator;
  /** The project the monitor belongs to. */
  projectId: Scalars['ID']['output'];
  /** Major units. */
  value: Scalars['Decimal']['output'];
  /** null: every customer wallet of the project. */
  walletId?: Maybe<Scalars['ID']['output']>;
};

/** A page of a list of BalanceMonitor items (a Relay connection), in the list's order. */
export type BalanceMonitorConnection = {
  __typename?: 'BalanceMonitorConnection';
  /** The page's items, each with its cursor, in the list's order. */
  edges: Array<BalanceMonitorEdge>;
  /** Whether more items follow, and the cursor to read them. */
  pageInfo: PageInfo;
  /** How many items the whole list holds, across every page (whatever `first` and `after`). */
  totalCount: Scalars['Int']['output'];
};

/** One BalanceMonitor of a page, with its position in the list. */
export type BalanceMonitorEdge = {
  __typename?: 'BalanceMonitorEdge';
  /** An opaque position in the list: pass it as `after` to read the items that follow this one. */
  cursor: Scalars['String']['output'];
  /** The BalanceMonitor. */
  node: BalanceMonitor;
};

/** One transfer (leg) of transferBatch, in the batch's project; checked as `transfer` is, after the legs before it. */
export type BatchTransferInput = {
  /** Major units, > 0, with at most the asset's `fractions` decimals (and at most 2⁵³−1 minor units), else `validation_error`. */
  amount: Scalars['Decimal']['input'];
  /** At most 10, judged once the posting is done, after every other check, in order: the first that does not hold refuses it with `condition_failed` (`extensions.details` {index, actual}) and nothing is posted. A leg's conditions name its own parties and see the batch's earlier legs; refused: `details` {index: leg, condition, actual}. */
  conditions?: InputMaybe<Array<ConditionInput>>;
  /** An asset symbol of the project (else `not_found`). */
  currency: Scalars['String']['input'];
  /** The sender: a wallet id or address in the project (it may spend what an earlier leg credited it). */
  from: Scalars['String']['input'];
  /** Any JSON object of at most 4 KiB serialised, kept with the transaction; default {}. */
  metadata?: InputMaybe<Scalars['JSONObject']['input']>;
  /** Your own reference, 1–128 of A–Z a–z 0–9 . _ : / # -, unique per project among transactions and holds (reused: `conflict` with `details.existingId`). Two legs of a batch cannot share one. */
  reference?: InputMaybe<Scalars['String']['input']>;
  /** The receiver: a wallet id or address in the project, not the sender. */
  to: Scalars['String']['input'];
};

/** Which value of a party a condition compares, after the posting. */
export type ConditionField =
  /** balance − held + creditLimit. */
  | 'AVAILABLE'
  /** The posted balance. */
  | 'BALANCE';

/** Post only if, afterwards, `field op value` holds for this party in this currency. */
export type ConditionInput = {
  /** An asset symbol of the project; a currency the posting does not move is judged on its unchanged values. */
  currency: Scalars['String']['input'];
  /** The value compared, after the posting. */
  field: ConditionField;
  /** The comparison: `field op value`. */
  op: ConditionOp;
  /** Major units; may be below zero. */
  value: Scalars['Decimal']['input'];
  /** A party of the posting (its sender or receiver): a wallet id or address; another wallet: `validation_error`. */
  wallet: Scalars['String']['input'];
};

/** The comparison of `field op value`. */
export type ConditionOp =
  /** field = value. */
  | 'EQ'
  /** field > value. */
  | 'GT'
  /** field ≥ value. */
  | 'GTE'
  /** field < value. */
  | 'LT'
  /** field ≤ value. */
  | 'LTE';

/** A new currency of a project. */
export type CreateAssetInput = {
  /** Seconds a credit to a customer wallet lives before its remaining points expire, 1–315360000; absent or null: never expires. */
  expiresAfterSeconds?: InputMaybe<Scalars['Int']['input']>;
  /** Decimal places of amounts, 0–18 (2: amounts like "12.50"). Fixed once created. */
  fractions: Scalars['Int']['input'];
  /** Display name, 1–200 characters. */
  name: Scalars['String']['input'];
  /** One of your projects (else `not_found`). */
  projectId: Scalars['ID']['input'];
  /** The currency code used as `currency` elsewhere: 1–12 of A–Z 0–9 _ -, unique within the project (a duplicate: `conflict`). */
  symbol: Scalars['String']['input'];
};

/** A new project; absent or null fields take their defaults. */
export type CreateProjectInput = {
  /** An asset of another of your projects, shared as this project's primary currency (else `not_found`); absent: the project's first own asset becomes its primary one. */
  assetId?: InputMaybe<Scalars['ID']['input']>;
  /** Points per unit of fiat money for webhook rewards given as `fiatAmount`, > 0; default 1. */
  exchangeRate?: InputMaybe<Scalars['Float']['input']>;
  /** Any JSON object of at most 16 KiB serialised; default {}. */
  metadata?: InputMaybe<Scalars['JSONObject']['input']>;
  /** Display name, 1–200 characters after trimming. */
  name: Scalars['String']['input'];
  /** Whether webhook rewards may be given as `fiatAmount`; default false. */
  supportExchangeRate?: InputMaybe<Scalars['Boolean']['input']>;
  /** The kind of program: only "loyalty" (the default). */
  type?: InputMaybe<Scalars['String']['input']>;
};

/** A new wallet of a project; it starts ACTIVE with zero balances. */
export type CreateWalletInput = {
  /** The address, 1–128 of A–Z a–z 0–9 . _ : @ - not starting with @ (reserved for @mint and @expired), unique within the project (taken: `conflict`); generated when absent. */
  address?: InputMaybe<Scalars['String']['input']>;
  /** One of your projects (else `not_found`). */
  projectId: Scalars['ID']['input'];
};

/** A wallet's credit line in one currency: how far below zero it may go. */
export type CreditLine = {
  __typename?: 'CreditLine';
  /** The asset's symbol. */
  currency: Scalars['String']['output'];
  /** Major units; 0: no line. */
  limit: Scalars['Decimal']['output'];
  /** The wallet's id. */
  walletId: Scalars['ID']['output'];
};

/** The answer of deleteAsset. */
export type DeleteAssetPayload = {
  __typename?: 'DeleteAssetPayload';
  /** Always true: a refused deletion is an error instead. */
  deleted: Scalars['Boolean']['output'];
  /** The deleted asset's id. */
  id: Scalars['ID']['output'];
};

/** The answer to deleteBalanceMonitor. */
export type DeleteBalanceMonitorPayload = {
  __typename?: 'DeleteBalanceMonitorPayload';
  /** Always true: the monitor crosses no more (events already written stay). */
  deleted: Scalars['Boolean']['output'];
  /** The deleted monitor’s id. */
  id: Scalars['ID']['output'];
};

/** The answer to deleteWalletGroup. */
export type DeleteWalletGroupPayload = {
  __typename?: 'DeleteWalletGroupPayload';
  /** Always true. */
  deleted: Scalars['Boolean']['output'];
  /** The deleted group's id. */
  id: Scalars['ID']['output'];
};

/** The answer to deleteLimit. */
export type DeletedLimit = {
  __typename?: 'DeletedLimit';
  /** Always true: the limit binds no posting from now on. */
  deleted: Scalars['Boolean']['output'];
  /** The deleted limit’s id. */
  id: Scalars['ID']['output'];
};

/** One currency of a group's roll-up: sums over every wallet of its subtree, in major units. */
export type GroupBalance = {
  __typename?: 'GroupBalance';
  /** The asset's id. */
  assetId: Scalars['ID']['output'];
  /** balance − held; null with `asOf`. */
  available?: Maybe<Scalars['Decimal']['output']>;
  /** The sum of the posted balances. */
  balance: Scalars['Decimal']['output'];
  /** The asset's symbol. */
  currency: Scalars['String']['output'];
  /** The sum of what pending, unexpired holds reserve; null with `asOf`. */
  held?: Maybe<Scalars['Decimal']['output']>;
  /** The sum of pending credits to the wallets (holds towards them): 0 until pending credits are kept; null with `asOf`. */
  incoming?: Maybe<Scalars['Decimal']['output']>;
  /** How many wallets the subtree has. */
  wallets: Scalars['Int']['output'];
};

/** A reservation of part of a sender's available funds for a later transfer (two-phase transfer): createHold reserves, captureHold posts, voidHold releases. While pending it lowers the sender's `available`, not its `balance`; the receiver sees nothing until the capture. */
export type Hold = {
  __typename?: 'Hold';
  /** The amount reserved at creation, in major units. */
  amount: Scalars['Decimal']['output'];
  /** The part captured, in major units: "0" unless CAPTURED. */
  capturedAmount: Scalars['Decimal']['output'];
  /** When the hold was created. */
  createdAt: Scalars['DateTime']['output'];
  /** The asset's symbol. */
  currency: Scalars['String']['output'];
  /** When a pending hold expires; null: never. */
  expiresAt?: Maybe<Scalars['DateTime']['output']>;
  /** The sender's wallet address (whose funds are reserved). */
  from: Scalars['String']['output'];
  /** The hold's id (a UUID). */
  id: Scalars['ID']['output'];
  /** When a maturing hold (a pending credit) captures itself for its whole amount; null for an ordinary hold. Never set with `expiresAt`. */
  maturesAt?: Maybe<Scalars['DateTime']['output']>;
  /** The caller's metadata ({} when none was given). */
  metadata: Scalars['JSONObject']['output'];
  /** The id of the project the hold belongs to. */
  projectId: Scalars['ID']['output'];
  /** The caller's reference, unique per project among transactions and holds; null when none was given. */
  reference?: Maybe<Scalars['String']['output']>;
  /** Where the hold stands; EXPIRED from the instant `expiresAt` passes. */
  status: HoldStatus;
  /** The receiver's wallet address. */
  to: Scalars['String']['output'];
  /** The id of the capture's transaction; null unless CAPTURED. */
  transactionId?: Maybe<Scalars['ID']['output']>;
  /** When the hold last changed status (its creation, if never). */
  updatedAt: Scalars['DateTime']['output'];
};

/** The answer of captureHold: the transaction it posted and the hold, now CAPTURED. */
export type HoldCapture = {
  __typename?: 'HoldCapture';
  /** The hold after the capture. */
  hold: Hold;
  /** The posted transaction, from the hold's sender to its receiver; its `balance` is the sender's. */
  transaction: Transaction;
};

/** A page of holds, newest first. */
export type HoldConnection = {
  __typename?: 'HoldConnection';
  /** The page's items, each with its cursor, in the list's order. */
  edges: Array<HoldEdge>;
  /** Whether more items follow, and the cursor to read them. */
  pageInfo: PageInfo;
  /** How many items the whole list holds, across every page (whatever `first` and `after`). */
  totalCount: Scalars['Int']['output'];
};

/** One Hold of a page, with its position in the list. */
export type HoldEdge = {
  __typename?: 'HoldEdge';
  /** An opaque position in the list: pass it as `after` to read the items that follow this one. */
  cursor: Scalars['String']['output'];
  /** The Hold. */
  node: Hold;
};

/** Where a hold stands: PENDING, then exactly one of CAPTURED, VOIDED or EXPIRED, each final. */
export type HoldStatus =
  /** captureHold posted (part of) it; `transactionId` is the posting, the rest was released. */
  | 'CAPTURED'
  /** `expiresAt` passed while it was pending: released from that instant (whatever background work has done yet); it can no longer be captured or voided. */
  | 'EXPIRED'
  /** Reserving the amount: counted in the sender's `held`, waiting for captureHold or voidHold. */
  | 'PENDING'
  /** voidHold released it; nothing was posted. */
  | 'VOIDED';

/** A change committed in a project (a posting, a hold, a wallet status change, an expiry), recorded in the same database transaction as the change itself. The same event feeds `events`, `ledgerEvents` and outbound webhooks. */
export type LedgerEvent = {
  __typename?: 'LedgerEvent';
  /** When the change was committed. */
  createdAt: Scalars['DateTime']['output'];
  /** The changed resource as the REST API shows it (snake_case timestamps, amounts as JSON numbers of major units): a transaction with its sender's resulting balance (transaction.posted, points.expired), a hold (hold.*), a wallet without its balances (wallet.status_changed), or a monitor crossing with the values before and after (balance.threshold_crossed). */
  data: Scalars['JSON']['output'];
  /** Also the `webhook-id` of its outbound deliveries. */
  id: Scalars['ID']['output'];
  /** The id of the project the change happened in. */
  projectId: Scalars['ID']['output'];
  /** Position of the event in its project: increases in commit order, with no reuse. An integer, typed Float because it may pass 2³¹. */
  seq: Scalars['Float']['output'];
  /** What happened: transaction.posted, hold.created, hold.captured, hold.voided, hold.expired, wallet.status_changed, points.expired, balance.threshold_crossed (a balance monitor crossed) or hold.maturity_refused (a maturing hold could not capture itself; `data` is {hold, code}). The data of a hold.captured carries `matured`. */
  type: Scalars['String']['output'];
};

/** A page of a project's events, oldest first (increasing `seq`). */
export type LedgerEventConnection = {
  __typename?: 'LedgerEventConnection';
  /** The page's items, each with its cursor, in the list's order. */
  edges: Array<LedgerEventEdge>;
  /** Whether more items follow, and the cursor to read them. */
  pageInfo: PageInfo;
  /** How many items the whole list holds, across every page (whatever `first` and `after`). */
  totalCount: Scalars['Int']['output'];
};

/** One LedgerEvent of a page, with its position in the list. */
export type LedgerEventEdge = {
  __typename?: 'LedgerEventEdge';
  /** An opaque position in the list: pass it as `after` to read the items that follow this one. */
  cursor: Scalars['String']['output'];
  /** The LedgerEvent. */
  node: LedgerEvent;
};

/** A spending (debit) or earning (credit) limit over a sliding window: a posting or hold that would take what the wallet moved in the window above `amount` is refused with `limit_exceeded`. Reversals and expiries are neither counted nor checked. */
export type Limit = {
  __typename?: 'Limit';
  /** The most the wallet may move in the window (major units). */
  amount: Scalars['Decimal']['output'];
  /** When the limit was created. */
  createdAt: Scalars['DateTime']['output'];
  /** The asset symbol. */
  currency: Scalars['String']['output'];
  /** Whether money leaving (DEBIT) or arriving (CREDIT) is counted. */
  direction: LimitDirection;
  /** The limit’s id (for deleteLimit). */
  id: Scalars['ID']['output'];
  /** The project the limit belongs to. */
  projectId: Scalars['ID']['output'];
  /** null: every customer wallet of the project. */
  walletId?: Maybe<Scalars['ID']['output']>;
  /** The window: (now − windowSeconds, now]. */
  windowSeconds: Scalars['Int']['output'];
};

/** A page of a list of Limit items (a Relay connection), in the list's order. */
export type LimitConnection = {
  __typename?: 'LimitConnection';
  /** The page's items, each with its cursor, in the list's order. */
  edges: Array<LimitEdge>;
  /** Whether more items follow, and the cursor to read them. */
  pageInfo: PageInfo;
  /** How many items the whole list holds, across every page (whatever `first` and `after`). */
  totalCount: Scalars['Int']['output'];
};

/** Which movements a limit counts. */
export type LimitDirection =
  /** Money arriving in the wallet: transfers and batch legs it receives, seeds, captures paid to it, rewards. */
  | 'CREDIT'
  /** Money leaving the wallet: transfers and batch legs it sends, captures of its holds, redemptions; its pending holds count from their creation. */
  | 'DEBIT';

/** One Limit of a page, with its position in the list. */
export type LimitEdge = {
  __typename?: 'LimitEdge';
  /** An opaque position in the list: pass it as `after` to read the items that follow this one. */
  cursor: Scalars['String']['output'];
  /** The Limit. */
  node: Limit;
};

/** A limit that applies to the wallet now (its own limits, or else, for a customer wallet, the project-wide ones), with what it used and what remains. */
export type LimitUsage = {
  __typename?: 'LimitUsage';
  /** The most the wallet may move in the window (major units). */
  amount: Scalars['Decimal']['output'];
  /** When the limit was created. */
  createdAt: Scalars['DateTime']['output'];
  /** The asset symbol. */
  currency: Scalars['String']['output'];
  /** Whether money leaving (DEBIT) or arriving (CREDIT) is counted. */
  direction: LimitDirection;
  /** The limit’s id (for deleteLimit). */
  id: Scalars['ID']['output'];
  /** The project the limit belongs to. */
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

/** Points of an expiring asset credited together to a customer wallet, which expire together. A debit spends the lot that expires first first; what is left at `expiresAt` leaves the wallet in a transaction to @expired. */
export type Lot = {
  __typename?: 'Lot';
  /** The credit, in major units. */
  amount: Scalars['Decimal']['output'];
  /** When the credit was posted. */
  createdAt: Scalars['DateTime']['output'];
  /** When the remaining points expire. */
  expiresAt: Scalars['DateTime']['output'];
  /** What is left of it, in major units (points reserved by pending holds still count as left). */
  remaining: Scalars['Decimal']['output'];
};

/** A metadata condition: the transaction's top-level metadata value for `key` is the string `value`, or the number or boolean whose JSON text it is. */
export type MetadataPair = {
  /** A top-level metadata key (1–128 characters). */
  key: Scalars['String']['input'];
  /** The text the value must be (or whose JSON text a number or boolean value must be), at most 1024 characters. */
  value: Scalars['String']['input'];
};

/** Which value of the wallet a monitor watches. */
export type MonitorField =
  /** What the wallet can spend: the balance minus its pending holds. */
  | 'AVAILABLE'
  /** The posted balance. */
  | 'BALANCE';

/** The comparison of `field operator value`. */
export type MonitorOperator =
  /** field > value. */
  | 'GT'
  /** field ≥ value. */
  | 'GTE'
  /** field < value. */
  | 'LT'
  /** field ≤ value. */
  | 'LTE';

/** Writes, one per REST write, with the same rules and error codes; a refused mutation writes nothing. Besides the errors each mutation lists, any of them may answer `unauthorized`, `rate_limited`, `validation_error`, `timeout` or `internal_error`, in `errors` with `extensions.code` and `extensions.details`. Each takes an optional `idempotencyKey` that makes a retry safe. */
export type Mutation = {
  __typename?: 'Mutation';
  /** Puts a wallet (id or address) in the group, out of the group it was in (as PUT /wallet-groups/{id}/wallets/{walletId}). */
  addWalletToGroup: WalletGroup;
  /** Posts a pending hold (as POST /holds/{id}/capture): one transaction of `amount` from its sender to its receiver; the rest is released and the hold is CAPTURED. Errors: `validation_error`, `not_found` (the hold, or `projectId` not its project), `hold_expired` (it expired while pending), `hold_not_pending` (already captured or voided), `wallet_inactive` (either wallet not ACTIVE), `validation_error` (`amount` above the hold's). */
  captureHold: HoldCapture;
  /** Creates a currency in one of your projects (as POST /assets); a project's first asset becomes its primary one. Errors: `validation_error`, `not_found` (the project), `conflict` (the symbol is taken in the project), `quota_exceeded` (the plan's assets_per_project). */
  createAsset: Asset;
  /** Creates a balance monitor: each committed change that makes its condition true for a wallet writes one balance.threshold_crossed event. At most 100 per project (`quota_exceeded`); bad input is `validation_error`, an unknown project, currency or wallet `not_found`. Creating one fires nothing. */
  createBalanceMonitor: BalanceMonitor;
  /** Reserves an amount of the sender's available funds for a later captureHold or voidHold (as POST /holds); answers the PENDING hold. Nothing is posted: the sender's `held` grows, its `balance` and the receiver's do not change. Errors: `validation_error`, `not_found` (the project, a wallet, the currency), `wallet_inactive`, `insufficient_funds` (the sender's `available` balance is short), `conflict` (the reference is taken). */
  createHold: Hold;
  /** Creates a limit. At most 50 per project (`quota_exceeded`); bad input is `validation_error`, an unknown project, asset or wallet `not_found`. */
  createLimit: Limit;
  /** Creates a project you own (as POST /projects). Errors: `validation_error`, `not_found` (`assetId` is not one of your assets), `quota_exceeded` (the plan's projects). */
  createProject: Project;
  /** Creates a wallet in one of your projects (as POST /wallets/create/{type}), ACTIVE with zero balances. Errors: `validation_error`, `not_found` (the project), `conflict` (the address is taken in the project), `quota_exceeded` (the plan's customer_wallets or system_wallets). */
  createWallet: Wallet;
  /** Creates a wallet group, a root or under `parentId` (as POST /wallet-groups). Errors: `validation_error` (a name outside 1–100 characters, a tree deeper than 8), `not_found` (project, parent), `quota_exceeded` (10,000 groups per project). */
  createWalletGroup: WalletGroup;
  /** Deletes an asset that was never used (as DELETE /assets/{id}); each project that had it as primary asset gets its oldest remaining own asset (or none) instead. Errors: `validation_error`, `not_found`, `asset_in_use` (it has transactions or holds). */
  deleteAsset: DeleteAssetPayload;
  /** Deletes a balance monitor: it crosses no more; events already written stay (`not_found` if it is not yours). */
  deleteBalanceMonitor: DeleteBalanceMonitorPayload;
  /** Deletes a limit: it binds no posting from now on (`not_found` if it is not yours). */
  deleteLimit: DeletedLimit;
  /** Deletes a group without wallets and subgroups (as DELETE /wallet-groups/{id}); otherwise `conflict`. */
  deleteWalletGroup: DeleteWalletGroupPayload;
  /** Takes a wallet out of the group (as DELETE /wallet-groups/{id}/wallets/{walletId}); `not_found` when it is not in it. */
  removeWalletFromGroup: WalletGroup;
  /** Renames one of your projects (as PUT /projects/{id}) and answers it as it is now. Errors: `validation_error`, `not_found`. */
  renameProject: Project;
  /** Posts a reversal (as POST /transactions/{id}/reverse): a new transaction of `amount` from the original's receiver back to its sender (to @mint for a seed); the original's `reversedAmount` grows by it. Its `balance` is its own sender's (the original's receiver). Errors: `validation_error`, `not_found` (the transaction or project), `conflict` (more than is still reversible, with `details.reversible`; a reversal or an expiry cannot be reversed; the reference is taken), `insufficient_funds` (the original's receiver lacks the amount available), `wallet_inactive` (either wallet not ACTIVE). */
  reverseTransaction: Transaction;
  /** Mints new money into a system wallet, from @mint (as POST /transactions/seed); its `balance` is the seeded wallet's right after. Errors: `validation_error` (a field out of range, or `to` is not a system wallet), `not_found` (the project, the wallet, the currency), `wallet_inactive`, `conflict` (the reference is taken). */
  seed: Transaction;
  /** Sets (0: removes) the wallet’s credit line in one currency: it may then go down to −limit (`Balance.available` = balance − held + creditLimit). Lowering it below what is used is allowed: the wallet then only receives until available > 0. Any wallet type. Errors: `validation_error` (a field; an asset whose points expire), `not_found` (the wallet in that project, the currency), `conflict` (a closed wallet). */
  setCreditLine: CreditLine;
  /** Suspends, reactivates or closes a wallet (as PUT /wallets/status/{id}) and answers it as it is now. Errors: `validation_error`, `not_found` (the wallet, or `projectId` not its project), `conflict` (a CLOSED wallet cannot change), `wallet_not_empty` (closing a wallet with a non-zero balance or a pending hold on either side). */
  setWalletStatus: Wallet;
  /** Moves an amount from one wallet to another of the same project (as POST /transactions); its `balance` is the sender's right after. Errors: `validation_error` (a field out of range), `not_found` (the project, a wallet, the currency), `wallet_inactive` (a wallet not ACTIVE), `insufficient_funds` (the sender's `available` balance is short), `limit_exceeded`, `conflict` (the reference is taken), `condition_failed` (a condition does not hold after the posting). */
  transfer: Transaction;
  /** Posts 1–100 transfers of one project atomically (as POST /transactions/batch): all or none, in order, so a leg may spend what an earlier leg credited. Answers one transaction per leg, in order, each `balance` its sender's. A refused leg refuses the whole batch with that leg's error and `details.index` (0-based): `validation_error` (a field out of range), `not_found` (the project, a wallet, the currency), `wallet_inactive` (a wallet not ACTIVE), `insufficient_funds` (the sender's `available` balance is short), `limit_exceeded`, `conflict` (the reference is taken), `condition_failed` (a condition does not hold after the posting). */
  transferBatch: Array<Transaction>;
  /** Changes an asset's name, symbol or expiry (as PUT /assets/{id}) and answers it as it is now. Errors: `validation_error`, `not_found` (the asset, or `projectId` not its project), `conflict` (the symbol of an asset with transactions, or a symbol taken in the project). */
  updateAsset: Asset;
  /** Renames a group and/or moves it (as PUT /wallet-groups/{id}): `parentId` null makes it a root, absent keeps its parent. A move making a cycle or a tree deeper than 8 is `validation_error`. */
  updateWalletGroup: WalletGroup;
  /** Releases a pending hold without posting anything (as POST /holds/{id}/void); answers it VOIDED. Errors: `validation_error`, `not_found` (the hold, or `projectId` not its project), `hold_expired` (it expired while pending), `hold_not_pending` (already captured or voided). */
  voidHold: Hold;
  /** Runs a flow of the inbound webhook (as POST /webhook): "reward" posts a transfer from a system wallet to a customer wallet, "redeem" from a customer wallet to a system wallet; any other flow is only recorded. Every call that passes validation is recorded (webhookEvents), refused ones included. A flow that cannot run posts nothing and answers the error its transfer would: `validation_error` (e.g. `fiatAmount` without the project's supportExchangeRate), `not_found`, `wallet_inactive`, `insufficient_funds`. */
  webhook: WebhookResult;
};


/** Writes, one per REST write, with the same rules and error codes; a refused mutation writes nothing. Besides the errors each mutation lists, any of them may answer `unauthorized`, `rate_limited`, `validation_error`, `timeout` or `internal_error`, in `errors` with `extensions.code` and `extensions.details`. Each takes an optional `idempotencyKey` that makes a retry safe. */
export type MutationAddWalletToGroupArgs = {
  id: Scalars['ID']['input'];
  idempotencyKey?: InputMaybe<Scalars['String']['input']>;
  projectId: Scalars['ID']['input'];
  walletId: Scalars['String']['input'];
};


/** Writes, one per REST write, with the same rules and error codes; a refused mutation writes nothing. Besides the errors each mutation lists, any of them may answer `unauthorized`, `rate_limited`, `validation_error`, `timeout` or `internal_error`, in `errors` with `extensions.code` and `extensions.details`. Each takes an optional `idempotencyKey` that makes a retry safe. */
export type MutationCaptureHoldArgs = {
  amount?: InputMaybe<Scalars['Decimal']['input']>;
  conditions?: InputMaybe<Array<ConditionInput>>;
  dryRun?: InputMaybe<Scalars['Boolean']['input']>;
  id: Scalars['ID']['input'];
  idempotencyKey?: InputMaybe<Scalars['String']['input']>;
  projectId: Scalars['ID']['input'];
};


/** Writes, one per REST write, with the same rules and error codes; a refused mutation writes nothing. Besides the errors each mutation lists, any of them may answer `unauthorized`, `rate_limited`, `validation_error`, `timeout` or `internal_error`, in `errors` with `extensions.code` and `extensions.details`. Each takes an optional `idempotencyKey` that makes a retry safe. */
export type MutationCreateAssetArgs = {
  idempotencyKey?: InputMaybe<Scalars['String']['input']>;
  input: CreateAssetInput;
};


/** Writes, one per REST write, with the same rules and error codes; a refused mutation writes nothing. Besides the errors each mutation lists, any of them may answer `unauthorized`, `rate_limited`, `validation_error`, `timeout` or `internal_error`, in `errors` with `extensions.code` and `extensions.details`. Each takes an optional `idempotencyKey` that makes a retry safe. */
export type MutationCreateBalanceMonitorArgs = {
  currency: Scalars['String']['input'];
  field: MonitorField;
  idempotencyKey?: InputMaybe<Scalars['String']['input']>;
  operator: MonitorOperator;
  projectId: Scalars['ID']['input'];
  value: Scalars['Decimal']['input'];
  walletId?: InputMaybe<Scalars['String']['input']>;
};


/** Writes, one per REST write, with the same rules and error codes; a refused mutation writes nothing. Besides the errors each mutation lists, any of them may answer `unauthorized`, `rate_limited`, `validation_error`, `timeout` or `internal_error`, in `errors` with `extensions.code` and `extensions.details`. Each takes an optional `idempotencyKey` that makes a retry safe. */
export type MutationCreateHoldArgs = {
  amount: Scalars['Decimal']['input'];
  currency: Scalars['String']['input'];
  dryRun?: InputMaybe<Scalars['Boolean']['input']>;
  expiresIn?: InputMaybe<Scalars['Int']['input']>;
  from: Scalars['String']['input'];
  idempotencyKey?: InputMaybe<Scalars['String']['input']>;
  matureAt?: InputMaybe<Scalars['DateTime']['input']>;
  matureIn?: InputMaybe<Scalars['Int']['input']>;
  metadata?: InputMaybe<Scalars['JSONObject']['input']>;
  projectId: Scalars['ID']['input'];
  reference?: InputMaybe<Scalars['String']['input']>;
  to: Scalars['String']['input'];
};


/** Writes, one per REST write, with the same rules and error codes; a refused mutation writes nothing. Besides the errors each mutation lists, any of them may answer `unauthorized`, `rate_limited`, `validation_error`, `timeout` or `internal_error`, in `errors` with `extensions.code` and `extensions.details`. Each takes an optional `idempotencyKey` that makes a retry safe. */
export type MutationCreateLimitArgs = {
  amount: Scalars['Decimal']['input'];
  currency: Scalars['String']['input'];
  direction: LimitDirection;
  idempotencyKey?: InputMaybe<Scalars['String']['input']>;
  projectId: Scalars['ID']['input'];
  walletId?: InputMaybe<Scalars['String']['input']>;
  windowSeconds: Scalars['Int']['input'];
};


/** Writes, one per REST write, with the same rules and error codes; a refused mutation writes nothing. Besides the errors each mutation lists, any of them may answer `unauthorized`, `rate_limited`, `validation_error`, `timeout` or `internal_error`, in `errors` with `extensions.code` and `extensions.details`. Each takes an optional `idempotencyKey` that makes a retry safe. */
export type MutationCreateProjectArgs = {
  idempotencyKey?: InputMaybe<Scalars['String']['input']>;
  input: CreateProjectInput;
};


/** Writes, one per REST write, with the same rules and error codes; a refused mutation writes nothing. Besides the errors each mutation lists, any of them may answer `unauthorized`, `rate_limited`, `validation_error`, `timeout` or `internal_error`, in `errors` with `extensions.code` and `extensions.details`. Each takes an optional `idempotencyKey` that makes a retry safe. */
export type MutationCreateWalletArgs = {
  idempotencyKey?: InputMaybe<Scalars['String']['input']>;
  input: CreateWalletInput;
  type: WalletType;
};


/** Writes, one per REST write, with the same rules and error codes; a refused mutation writes nothing. Besides the errors each mutation lists, any of them may answer `unauthorized`, `rate_limited`, `validation_error`, `timeout` or `internal_error`, in `errors` with `extensions.code` and `extensions.details`. Each takes an optional `idempotencyKey` that makes a retry safe. */
export type MutationCreateWalletGroupArgs = {
  idempotencyKey?: InputMaybe<Scalars['String']['input']>;
  metadata?: InputMaybe<Scalars['JSONObject']['input']>;
  name: Scalars['String']['input'];
  parentId?: InputMaybe<Scalars['ID']['input']>;
  projectId: Scalars['ID']['input'];
};


/** Writes, one per REST write, with the same rules and error codes; a refused mutation writes nothing. Besides the errors each mutation lists, any of them may answer `unauthorized`, `rate_limited`, `validation_error`, `timeout` or `internal_error`, in `errors` with `extensions.code` and `extensions.details`. Each takes an optional `idempotencyKey` that makes a retry safe. */
export type MutationDeleteAssetArgs = {
  id: Scalars['ID']['input'];
  idempotencyKey?: InputMaybe<Scalars['String']['input']>;
};


/** Writes, one per REST write, with the same rules and error codes; a refused mutation writes nothing. Besides the errors each mutation lists, any of them may answer `unauthorized`, `rate_limited`, `validation_error`, `timeout` or `internal_error`, in `errors` with `extensions.code` and `extensions.details`. Each takes an optional `idempotencyKey` that makes a retry safe. */
export type MutationDeleteBalanceMonitorArgs = {
  id: Scalars['ID']['input'];
  idempotencyKey?: InputMaybe<Scalars['String']['input']>;
};


/** Writes, one per REST write, with the same rules and error codes; a refused mutation writes nothing. Besides the errors each mutation lists, any of them may answer `unauthorized`, `rate_limited`, `validation_error`, `timeout` or `internal_error`, in `errors` with `extensions.code` and `extensions.details`. Each takes an optional `idempotencyKey` that makes a retry safe. */
export type MutationDeleteLimitArgs = {
  id: Scalars['ID']['input'];
};


/** Writes, one per REST write, with the same rules and error codes; a refused mutation writes nothing. Besides the errors each mutation lists, any of them may answer `unauthorized`, `rate_limited`, `validation_error`, `timeout` or `internal_error`, in `errors` with `extensions.code` and `extensions.details`. Each takes an optional `idempotencyKey` that makes a retry safe. */
export type MutationDeleteWalletGroupArgs = {
  id: Scalars['ID']['input'];
  idempotencyKey?: InputMaybe<Scalars['String']['input']>;
};


/** Writes, one per REST write, with the same rules and error codes; a refused mutation writes nothing. Besides the errors each mutation lists, any of them may answer `unauthorized`, `rate_limited`, `validation_error`, `timeout` or `internal_error`, in `errors` with `extensions.code` and `extensions.details`. Each takes an optional `idempotencyKey` that makes a retry safe. */
export type MutationRemoveWalletFromGroupArgs = {
  id: Scalars['ID']['input'];
  idempotencyKey?: InputMaybe<Scalars['String']['input']>;
  projectId: Scalars['ID']['input'];
  walletId: Scalars['String']['input'];
};


/** Writes, one per REST write, with the same rules and error codes; a refused mutation writes nothing. Besides the errors each mutation lists, any of them may answer `unauthorized`, `rate_limited`, `validation_error`, `timeout` or `internal_error`, in `errors` with `extensions.code` and `extensions.details`. Each takes an optional `idempotencyKey` that makes a retry safe. */
export type MutationRenameProjectArgs = {
  id: Scalars['ID']['input'];
  idempotencyKey?: InputMaybe<Scalars['String']['input']>;
  name: Scalars['String']['input'];
};


/** Writes, one per REST write, with the same rules and error codes; a refused mutation writes nothing. Besides the errors each mutation lists, any of them may answer `unauthorized`, `rate_limited`, `validation_error`, `timeout` or `internal_error`, in `errors` with `extensions.code` and `extensions.details`. Each takes an optional `idempotencyKey` that makes a retry safe. */
export type MutationReverseTransactionArgs = {
  amount?: InputMaybe<Scalars['Decimal']['input']>;
  dryRun?: InputMaybe<Scalars['Boolean']['input']>;
  id: Scalars['ID']['input'];
  idempotencyKey?: InputMaybe<Scalars['String']['input']>;
  metadata?: InputMaybe<Scalars['JSONObject']['input']>;
  projectId: Scalars['ID']['input'];
  reference?: InputMaybe<Scalars['String']['input']>;
};


/** Writes, one per REST write, with the same rules and error codes; a refused mutation writes nothing. Besides the errors each mutation lists, any of them may answer `unauthorized`, `rate_limited`, `validation_error`, `timeout` or `internal_error`, in `errors` with `extensions.code` and `extensions.details`. Each takes an optional `idempotencyKey` that makes a retry safe. */
export type MutationSeedArgs = {
  dryRun?: InputMaybe<Scalars['Boolean']['input']>;
  idempotencyKey?: InputMaybe<Scalars['String']['input']>;
  input: SeedInput;
};


/** Writes, one per REST write, with the same rules and error codes; a refused mutation writes nothing. Besides the errors each mutation lists, any of them may answer `unauthorized`, `rate_limited`, `validation_error`, `timeout` or `internal_error`, in `errors` with `extensions.code` and `extensions.details`. Each takes an optional `idempotencyKey` that makes a retry safe. */
export type MutationSetCreditLineArgs = {
  currency: Scalars['String']['input'];
  limit: Scalars['Decimal']['input'];
  projectId: Scalars['ID']['input'];
  walletId: Scalars['ID']['input'];
};


/** Writes, one per REST write, with the same rules and error codes; a refused mutation writes nothing. Besides the errors each mutation lists, any of them may answer `unauthorized`, `rate_limited`, `validation_error`, `timeout` or `internal_error`, in `errors` with `extensions.code` and `extensions.details`. Each takes an optional `idempotencyKey` that makes a retry safe. */
export type MutationSetWalletStatusArgs = {
  id: Scalars['ID']['input'];
  idempotencyKey?: InputMaybe<Scalars['String']['input']>;
  input: SetWalletStatusInput;
};


/** Writes, one per REST write, with the same rules and error codes; a refused mutation writes nothing. Besides the errors each mutation lists, any of them may answer `unauthorized`, `rate_limited`, `validation_error`, `timeout` or `internal_error`, in `errors` with `extensions.code` and `extensions.details`. Each takes an optional `idempotencyKey` that makes a retry safe. */
export type MutationTransferArgs = {
  dryRun?: InputMaybe<Scalars['Boolean']['input']>;
  idempotencyKey?: InputMaybe<Scalars['String']['input']>;
  input: TransferInput;
};


/** Writes, one per REST write, with the same rules and error codes; a refused mutation writes nothing. Besides the errors each mutation lists, any of them may answer `unauthorized`, `rate_limited`, `validation_error`, `timeout` or `internal_error`, in `errors` with `extensions.code` and `extensions.details`. Each takes an optional `idempotencyKey` that makes a retry safe. */
export type MutationTransferBatchArgs = {
  dryRun?: InputMaybe<Scalars['Boolean']['input']>;
  idempotencyKey?: InputMaybe<Scalars['String']['input']>;
  projectId: Scalars['ID']['input'];
  transfers: Array<BatchTransferInput>;
};


/** Writes, one per REST write, with the same rules and error codes; a refused mutation writes nothing. Besides the errors each mutation lists, any of them may answer `unauthorized`, `rate_limited`, `validation_error`, `timeout` or `internal_error`, in `errors` with `extensions.code` and `extensions.details`. Each takes an optional `idempotencyKey` that makes a retry safe. */
export type MutationUpdateAssetArgs = {
  id: Scalars['ID']['input'];
  idempotencyKey?: InputMaybe<Scalars['String']['input']>;
  input: UpdateAssetInput;
};


/** Writes, one per REST write, with the same rules and error codes; a refused mutation writes nothing. Besides the errors each mutation lists, any of them may answer `unauthorized`, `rate_limited`, `validation_error`, `timeout` or `internal_error`, in `errors` with `extensions.code` and `extensions.details`. Each takes an optional `idempotencyKey` that makes a retry safe. */
export type MutationUpdateWalletGroupArgs = {
  id: Scalars['ID']['input'];
  idempotencyKey?: InputMaybe<Scalars['String']['input']>;
  name?: InputMaybe<Scalars['String']['input']>;
  parentId?: InputMaybe<Scalars['ID']['input']>;
  projectId: Scalars['ID']['input'];
};


/** Writes, one per REST write, with the same rules and error codes; a refused mutation writes nothing. Besides the errors each mutation lists, any of them may answer `unauthorized`, `rate_limited`, `validation_error`, `timeout` or `internal_error`, in `errors` with `extensions.code` and `extensions.details`. Each takes an optional `idempotencyKey` that makes a retry safe. */
export type MutationVoidHoldArgs = {
  id: Scalars['ID']['input'];
  idempotencyKey?: InputMaybe<Scalars['String']['input']>;
  projectId: Scalars['ID']['input'];
};


/** Writes, one per REST write, with the same rules and error codes; a refused mutation writes nothing. Besides the errors each mutation lists, any of them may answer `unauthorized`, `rate_limited`, `validation_error`, `timeout` or `internal_error`, in `errors` with `extensions.code` and `extensions.details`. Each takes an optional `idempotencyKey` that makes a retry safe. */
export type MutationWebhookArgs = {
  idempotencyKey?: InputMaybe<Scalars['String']['input']>;
  input: WebhookInput;
};

/** Where a page of a list stands (Relay): whether items follow it, and the cursors to go on from it. */
export type PageInfo = {
  __typename?: 'PageInfo';
  /** The last edge's cursor, the `after` of the next page; null when the page is empty. */
  endCursor?: Maybe<Scalars['String']['output']>;
  /** true when items follow this page: pass `endCursor` as `after` (same `first`) to read them. */
  hasNextPage: Scalars['Boolean']['output'];
  /** true when items come before this page, i.e. it was read with an `after`. Lists page forwards only. */
  hasPreviousPage: Scalars['Boolean']['output'];
  /** The first edge's cursor; null when the page is empty. */
  startCursor?: Maybe<Scalars['String']['output']>;
};

/** The caller's plan: its quotas (creating past one is refused with `quota_exceeded`, `details.quota` naming the field) and feature flags. */
export type Plan = {
  __typename?: 'Plan';
  /** Whether the plan includes advanced analytics. */
  advancedAnalytics: Scalars['Boolean']['output'];
  /** Authenticated requests per UTC day (REST and GraphQL together); past it, `rate_limited`. */
  apiCallsPerDay: Scalars['Int']['output'];
  /** How many assets each project may have. */
  assetsPerProject: Scalars['Int']['output'];
  /** Whether the plan includes custom branding. */
  customBranding: Scalars['Boolean']['output'];
  /** How many customer wallets the owner may have, across projects. */
  customerWallets: Scalars['Int']['output'];
  /** The plan: free, starter, pro or enterprise. */
  planCode: Scalars['String']['output'];
  /** Whether the plan includes priority support. */
  prioritySupport: Scalars['Boolean']['output'];
  /** How many projects the owner may have. */
  projects: Scalars['Int']['output'];
  /** The owner's subscription code, stable per owner (SUB_…). */
  subscriptionCode: Scalars['String']['output'];
  /** The subscription status: active. */
  subscriptionStatus: Scalars['String']['output'];
  /** How many system wallets the owner may have, across projects. */
  systemWallets: Scalars['Int']['output'];
  /** The caller's user id: the owner of the API key. */
  userId: Scalars['String']['output'];
};

/** A loyalty program’s flows in one currency per UTC day or hour (issued, redeemed, transferred, expired, reversed), their totals and the outstanding liability: outstanding at `until` − outstanding at `since` = issued − redeemed − expired. Only for plans with advanced_analytics (others: `feature_unavailable`). */
export type ProgramAnalytics = {
  __typename?: 'ProgramAnalytics';
  /** The asset symbol the figures are in (the project’s primary asset unless asked). */
  currency: Scalars['String']['output'];
  /** The project’s rate; null without supportExchangeRate. */
  exchangeRate?: Maybe<Scalars['Float']['output']>;
  /** "day" or "hour". */
  interval: Scalars['String']['output'];
  /** Every bucket of the range, oldest first, empty ones included. */
  series: Array<AnalyticsBucket>;
  /** The first bucket’s start. */
  since: Scalars['DateTime']['output'];
  /** The sums of the series over [since, until) and the liability at `until`. */
  totals: AnalyticsTotals;
  /** The end of the last bucket (exclusive). */
  until: Scalars['DateTime']['output'];
};

/** A project of the caller: a program with its own currencies (assets), wallets and transactions. Money moves only between wallets of one project. */
export type Project = {
  __typename?: 'Project';
  /** Program analytics (plans with advanced_analytics, else the error `feature_unavailable`): flows per UTC day or hour bucket, the liability at `until` and its value. */
  analytics?: Maybe<ProgramAnalytics>;
  /** The project's primary asset (its own, or shared from another of your projects); null until it has one. */
  asset?: Maybe<Asset>;
  /** The id of the primary asset (own or shared from another of your projects); null until the project has one. */
  assetId?: Maybe<Scalars['ID']['output']>;
  /** The project's own assets, oldest first (a primary asset shared from another project is not among them). */
  assets: AssetConnection;
  /** When the project was created. */
  createdAt: Scalars['DateTime']['output'];
  /** Points per unit of fiat money, > 0: a webhook reward given as `fiatAmount` earns fiatAmount × exchangeRate points (rounded down to the asset's decimals). */
  exchangeRate: Scalars['Float']['output'];
  /** The project's id: a positive integer (as an ID string). */
  id: Scalars['ID']['output'];
  /** The caller's metadata ({} when none). */
  metadata: Scalars['JSONObject']['output'];
  /** Display name, 1–200 characters. */
  name: Scalars['String']['output'];
  /** The user id that owns the project: the owner of the API key that created it. */
  owner: Scalars['String']['output'];
  /** Whether webhook rewards may be given in fiat money (`fiatAmount`) and converted with `exchangeRate`. */
  supportExchangeRate: Scalars['Boolean']['output'];
  /** The project's transactions matching every filter given, newest first (ties by commit order), as GET /transactions/search. Each `balance` is the `walletId` wallet's when that filter is given, else the sender's (for a seed: the seeded wallet's). No `totalCount`: a search is not counted. Errors: `validation_error` (a filter out of range), `not_found` (a wallet or currency the project lacks). */
  transactions: TransactionSearchConnection;
  /** The kind of program: always "loyalty". */
  type: Scalars['String']['output'];
  /** When the project was last changed (its creation, if never). */
  updatedAt: Scalars['DateTime']['output'];
  /** The project's wallet groups, oldest first: its roots, or the children of `parentId`. */
  walletGroups: WalletGroupConnection;
  /** The project's wallets (optionally of one type), oldest first. */
  wallets: WalletConnection;
};


/** A project of the caller: a program with its own currencies (assets), wallets and transactions. Money moves only between wallets of one project. */
export type ProjectAnalyticsArgs = {
  currency?: InputMaybe<Scalars['String']['input']>;
  interval?: InputMaybe<Scalars['String']['input']>;
  since?: InputMaybe<Scalars['DateTime']['input']>;
  until?: InputMaybe<Scalars['DateTime']['input']>;
};


/** A project of the caller: a program with its own currencies (assets), wallets and transactions. Money moves only between wallets of one project. */
export type ProjectAssetsArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  first?: Scalars['Int']['input'];
};


/** A project of the caller: a program with its own currencies (assets), wallets and transactions. Money moves only between wallets of one project. */
export type ProjectTransactionsArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  filter?: InputMaybe<TransactionFilter>;
  first?: Scalars['Int']['input'];
};


/** A project of the caller: a program with its own currencies (assets), wallets and transactions. Money moves only between wallets of one project. */
export type ProjectWalletGroupsArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  first?: Scalars['Int']['input'];
  parentId?: InputMaybe<Scalars['ID']['input']>;
};


/** A project of the caller: a program with its own currencies (assets), wallets and transactions. Money moves only between wallets of one project. */
export type ProjectWalletsArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  first?: Scalars['Int']['input'];
  type?: InputMaybe<WalletType>;
};

/** A page of your projects, oldest first (creation order). */
export type ProjectConnection = {
  __typename?: 'ProjectConnection';
  /** The page's items, each with its cursor, in the list's order. */
  edges: Array<ProjectEdge>;
  /** Whether more items follow, and the cursor to read them. */
  pageInfo: PageInfo;
  /** How many items the whole list holds, across every page (whatever `first` and `after`). */
  totalCount: Scalars['Int']['output'];
};

/** One Project of a page, with its position in the list. */
export type ProjectEdge = {
  __typename?: 'ProjectEdge';
  /** An opaque position in the list: pass it as `after` to read the items that follow this one. */
  cursor: Scalars['String']['output'];
  /** The Project. */
  node: Project;
};

/** Reads. Every operation needs the `api_key` header and counts against the plan's daily call quota. Errors come in `errors` with `extensions.code` and `extensions.details` (the REST error body's code and details): `unauthorized` (a missing or unknown key), `rate_limited` (the daily quota is spent), `validation_error` (a malformed argument, `details.field` naming it; or a document over the depth, alias, selection or cost limits, `details.limit` naming it, refused before anything runs), `not_found` (a missing resource, or another owner's: they are answered alike), `timeout` (a statement ran past the server's time-out), `internal_error`. Lists are Relay connections paged with `first` and `after`. */
export type Query = {
  __typename?: 'Query';
  /** One of your assets by id (as GET /assets/{id}). A missing asset, or another owner's, is a `not_found` error (and `asset: null`); a malformed id a `validation_error`. */
  asset?: Maybe<Asset>;
  /** Your assets in every project, or one project's own assets, oldest first (as GET /assets). */
  assets: AssetConnection;
  /** A project's balance monitors, oldest first; with walletId (id or address), that wallet's own only. Paged by offset cursors. */
  balanceMonitors: BalanceMonitorConnection;
  /** One of your projects' events, oldest first (as GET /events): every committed change, in `seq` order. Here `after` may also be a `seq` (as text), e.g. the last one a client processed. */
  events: LedgerEventConnection;
  /** One of your holds by id (as GET /holds/{id}); null, without an error, when it is missing, another owner's or the id is malformed. */
  hold?: Maybe<Hold>;
  /** One of your projects' holds, newest first (as GET /holds), optionally of one wallet or status. */
  holds: HoldConnection;
  /** A project's limits, oldest first; with walletId (id or address), that wallet's own limits only. Paged by offset cursors. */
  limits: LimitConnection;
  /** The caller's plan: its quotas and feature flags (as GET /user/plan). */
  plan: Plan;
  /** One of your projects by id (as GET /projects/{id}). A missing project, or another owner's, is a `not_found` error (and `project: null`); a malformed id a `validation_error`. */
  project?: Maybe<Project>;
  /** Your projects, oldest first (as GET /projects). */
  projects: ProjectConnection;
  /** One of your transactions by id, whatever its project or wallets. A missing transaction, or another owner's, is a `not_found` error (and `transaction: null`); a malformed id a `validation_error`. Its `balance` is null: read through no wallet's history, it names no wallet's side. */
  transaction?: Maybe<Transaction>;
  /** A wallet's history in one currency (as GET /transactions): its balance and its transactions in that currency, newest first, each with the wallet's balance right after it. With `asOf`, both as they were at that instant. Errors: `validation_error`, `not_found` (the wallet, the project, the currency, or a project without any asset and no `currency`). */
  transactions?: Maybe<TransactionHistory>;
  /** One of your wallets by id (as GET /wallets/{id}). A missing wallet, or another owner's, is a `not_found` error (and `wallet: null`); a malformed id a `validation_error`. */
  wallet?: Maybe<Wallet>;
  /** One of your wallet groups by id (as GET /wallet-groups/{id}); a missing one, or another owner's, is `not_found`. */
  walletGroup?: Maybe<WalletGroup>;
  /** One of your projects' wallets, optionally of one type, oldest first (as GET /wallets/{type}?projectId=). */
  wallets: WalletConnection;
  /** One of your projects' inbound webhook calls as recorded (refused flows included), oldest first. Pages have no gaps or repeats while calls go on. */
  webhookEvents: WebhookEventConnection;
};


/** Reads. Every operation needs the `api_key` header and counts against the plan's daily call quota. Errors come in `errors` with `extensions.code` and `extensions.details` (the REST error body's code and details): `unauthorized` (a missing or unknown key), `rate_limited` (the daily quota is spent), `validation_error` (a malformed argument, `details.field` naming it; or a document over the depth, alias, selection or cost limits, `details.limit` naming it, refused before anything runs), `not_found` (a missing resource, or another owner's: they are answered alike), `timeout` (a statement ran past the server's time-out), `internal_error`. Lists are Relay connections paged with `first` and `after`. */
export type QueryAssetArgs = {
  id: Scalars['ID']['input'];
};


/** Reads. Every operation needs the `api_key` header and counts against the plan's daily call quota. Errors come in `errors` with `extensions.code` and `extensions.details` (the REST error body's code and details): `unauthorized` (a missing or unknown key), `rate_limited` (the daily quota is spent), `validation_error` (a malformed argument, `details.field` naming it; or a document over the depth, alias, selection or cost limits, `details.limit` naming it, refused before anything runs), `not_found` (a missing resource, or another owner's: they are answered alike), `timeout` (a statement ran past the server's time-out), `internal_error`. Lists are Relay connections paged with `first` and `after`. */
export type QueryAssetsArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  first?: Scalars['Int']['input'];
  projectId?: InputMaybe<Scalars['ID']['input']>;
};


/** Reads. Every operation needs the `api_key` header and counts against the plan's daily call quota. Errors come in `errors` with `extensions.code` and `extensions.details` (the REST error body's code and details): `unauthorized` (a missing or unknown key), `rate_limited` (the daily quota is spent), `validation_error` (a malformed argument, `details.field` naming it; or a document over the depth, alias, selection or cost limits, `details.limit` naming it, refused before anything runs), `not_found` (a missing resource, or another owner's: they are answered alike), `timeout` (a statement ran past the server's time-out), `internal_error`. Lists are Relay connections paged with `first` and `after`. */
export type QueryBalanceMonitorsArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  first?: Scalars['Int']['input'];
  projectId: Scalars['ID']['input'];
  walletId?: InputMaybe<Scalars['String']['input']>;
};


/** Reads. Every operation needs the `api_key` header and counts against the plan's daily call quota. Errors come in `errors` with `extensions.code` and `extensions.details` (the REST error body's code and details): `unauthorized` (a missing or unknown key), `rate_limited` (the daily quota is spent), `validation_error` (a malformed argument, `details.field` naming it; or a document over the depth, alias, selection or cost limits, `details.limit` naming it, refused before anything runs), `not_found` (a missing resource, or another owner's: they are answered alike), `timeout` (a statement ran past the server's time-out), `internal_error`. Lists are Relay connections paged with `first` and `after`. */
export type QueryEventsArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  first?: Scalars['Int']['input'];
  projectId: Scalars['ID']['input'];
};


/** Reads. Every operation needs the `api_key` header and counts against the plan's daily call quota. Errors come in `errors` with `extensions.code` and `extensions.details` (the REST error body's code and details): `unauthorized` (a missing or unknown key), `rate_limited` (the daily quota is spent), `validation_error` (a malformed argument, `details.field` naming it; or a document over the depth, alias, selection or cost limits, `details.limit` naming it, refused before anything runs), `not_found` (a missing resource, or another owner's: they are answered alike), `timeout` (a statement ran past the server's time-out), `internal_error`. Lists are Relay connections paged with `first` and `after`. */
export type QueryHoldArgs = {
  id: Scalars['ID']['input'];
};


/** Reads. Every operation needs the `api_key` header and counts against the plan's daily call quota. Errors come in `errors` with `extensions.code` and `extensions.details` (the REST error body's code and details): `unauthorized` (a missing or unknown key), `rate_limited` (the daily quota is spent), `validation_error` (a malformed argument, `details.field` naming it; or a document over the depth, alias, selection or cost limits, `details.limit` naming it, refused before anything runs), `not_found` (a missing resource, or another owner's: they are answered alike), `timeout` (a statement ran past the server's time-out), `internal_error`. Lists are Relay connections paged with `first` and `after`. */
export type QueryHoldsArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  first?: Scalars['Int']['input'];
  projectId: Scalars['ID']['input'];
  status?: InputMaybe<HoldStatus>;
  walletId?: InputMaybe<Scalars['String']['input']>;
};


/** Reads. Every operation needs the `api_key` header and counts against the plan's daily call quota. Errors come in `errors` with `extensions.code` and `extensions.details` (the REST error body's code and details): `unauthorized` (a missing or unknown key), `rate_limited` (the daily quota is spent), `validation_error` (a malformed argument, `details.field` naming it; or a document over the depth, alias, selection or cost limits, `details.limit` naming it, refused before anything runs), `not_found` (a missing resource, or another owner's: they are answered alike), `timeout` (a statement ran past the server's time-out), `internal_error`. Lists are Relay connections paged with `first` and `after`. */
export type QueryLimitsArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  first?: Scalars['Int']['input'];
  projectId: Scalars['ID']['input'];
  walletId?: InputMaybe<Scalars['String']['input']>;
};


/** Reads. Every operation needs the `api_key` header and counts against the plan's daily call quota. Errors come in `errors` with `extensions.code` and `extensions.details` (the REST error body's code and details): `unauthorized` (a missing or unknown key), `rate_limited` (the daily quota is spent), `validation_error` (a malformed argument, `details.field` naming it; or a document over the depth, alias, selection or cost limits, `details.limit` naming it, refused before anything runs), `not_found` (a missing resource, or another owner's: they are answered alike), `timeout` (a statement ran past the server's time-out), `internal_error`. Lists are Relay connections paged with `first` and `after`. */
export type QueryProjectArgs = {
  id: Scalars['ID']['input'];
};


/** Reads. Every operation needs the `api_key` header and counts against the plan's daily call quota. Errors come in `errors` with `extensions.code` and `extensions.details` (the REST error body's code and details): `unauthorized` (a missing or unknown key), `rate_limited` (the daily quota is spent), `validation_error` (a malformed argument, `details.field` naming it; or a document over the depth, alias, selection or cost limits, `details.limit` naming it, refused before anything runs), `not_found` (a missing resource, or another owner's: they are answered alike), `timeout` (a statement ran past the server's time-out), `internal_error`. Lists are Relay connections paged with `first` and `after`. */
export type QueryProjectsArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  first?: Scalars['Int']['input'];
};


/** Reads. Every operation needs the `api_key` header and counts against the plan's daily call quota. Errors come in `errors` with `extensions.code` and `extensions.details` (the REST error body's code and details): `unauthorized` (a missing or unknown key), `rate_limited` (the daily quota is spent), `validation_error` (a malformed argument, `details.field` naming it; or a document over the depth, alias, selection or cost limits, `details.limit` naming it, refused before anything runs), `not_found` (a missing resource, or another owner's: they are answered alike), `timeout` (a statement ran past the server's time-out), `internal_error`. Lists are Relay connections paged with `first` and `after`. */
export type QueryTransactionArgs = {
  id: Scalars['ID']['input'];
};


/** Reads. Every operation needs the `api_key` header and counts against the plan's daily call quota. Errors come in `errors` with `extensions.code` and `extensions.details` (the REST error body's code and details): `unauthorized` (a missing or unknown key), `rate_limited` (the daily quota is spent), `validation_error` (a malformed argument, `details.field` naming it; or a document over the depth, alias, selection or cost limits, `details.limit` naming it, refused before anything runs), `not_found` (a missing resource, or another owner's: they are answered alike), `timeout` (a statement ran past the server's time-out), `internal_error`. Lists are Relay connections paged with `first` and `after`. */
export type QueryTransactionsArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  asOf?: InputMaybe<Scalars['DateTime']['input']>;
  currency?: InputMaybe<Scalars['String']['input']>;
  first?: Scalars['Int']['input'];
  projectId?: InputMaybe<Scalars['ID']['input']>;
  reference?: InputMaybe<Scalars['String']['input']>;
  walletId: Scalars['String']['input'];
};


/** Reads. Every operation needs the `api_key` header and counts against the plan's daily call quota. Errors come in `errors` with `extensions.code` and `extensions.details` (the REST error body's code and details): `unauthorized` (a missing or unknown key), `rate_limited` (the daily quota is spent), `validation_error` (a malformed argument, `details.field` naming it; or a document over the depth, alias, selection or cost limits, `details.limit` naming it, refused before anything runs), `not_found` (a missing resource, or another owner's: they are answered alike), `timeout` (a statement ran past the server's time-out), `internal_error`. Lists are Relay connections paged with `first` and `after`. */
export type QueryWalletArgs = {
  id: Scalars['ID']['input'];
};


/** Reads. Every operation needs the `api_key` header and counts against the plan's daily call quota. Errors come in `errors` with `extensions.code` and `extensions.details` (the REST error body's code and details): `unauthorized` (a missing or unknown key), `rate_limited` (the daily quota is spent), `validation_error` (a malformed argument, `details.field` naming it; or a document over the depth, alias, selection or cost limits, `details.limit` naming it, refused before anything runs), `not_found` (a missing resource, or another owner's: they are answered alike), `timeout` (a statement ran past the server's time-out), `internal_error`. Lists are Relay connections paged with `first` and `after`. */
export type QueryWalletGroupArgs = {
  id: Scalars['ID']['input'];
};


/** Reads. Every operation needs the `api_key` header and counts against the plan's daily call quota. Errors come in `errors` with `extensions.code` and `extensions.details` (the REST error body's code and details): `unauthorized` (a missing or unknown key), `rate_limited` (the daily quota is spent), `validation_error` (a malformed argument, `details.field` naming it; or a document over the depth, alias, selection or cost limits, `details.limit` naming it, refused before anything runs), `not_found` (a missing resource, or another owner's: they are answered alike), `timeout` (a statement ran past the server's time-out), `internal_error`. Lists are Relay connections paged with `first` and `after`. */
export type QueryWalletsArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  first?: Scalars['Int']['input'];
  projectId: Scalars['ID']['input'];
  type?: InputMaybe<WalletType>;
};


/** Reads. Every operation needs the `api_key` header and counts against the plan's daily call quota. Errors come in `errors` with `extensions.code` and `extensions.details` (the REST error body's code and details): `unauthorized` (a missing or unknown key), `rate_limited` (the daily quota is spent), `validation_error` (a malformed argument, `details.field` naming it; or a document over the depth, alias, selection or cost limits, `details.limit` naming it, refused before anything runs), `not_found` (a missing resource, or another owner's: they are answered alike), `timeout` (a statement ran past the server's time-out), `internal_error`. Lists are Relay connections paged with `first` and `after`. */
export type QueryWebhookEventsArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  first?: Scalars['Int']['input'];
  projectId: Scalars['ID']['input'];
};

/** A page of a wallet's transactions in every currency, newest first; each `balance` is this wallet's, in that transaction's currency. */
export type RecentTransactionConnection = {
  __typename?: 'RecentTransactionConnection';
  /** The page's items, each with its cursor, in the list's order. */
  edges: Array<TransactionEdge>;
  /** Whether more items follow, and the cursor to read them. */
  pageInfo: PageInfo;
  /** How many items the whole list holds, across every page (whatever `first` and `after`). */
  totalCount: Scalars['Int']['output'];
};

/** New money minted from @mint into a system wallet. */
export type SeedInput = {
  /** Major units, > 0, with at most the asset's `fractions` decimals (and at most 2⁵³−1 minor units), else `validation_error`. */
  amount: Scalars['Decimal']['input'];
  /** An asset symbol of the project (else `not_found`). */
  currency: Scalars['String']['input'];
  /** Any JSON object of at most 4 KiB serialised, kept with the transaction; default {}. */
  metadata?: InputMaybe<Scalars['JSONObject']['input']>;
  /** One of your projects (else `not_found`). */
  projectId: Scalars['ID']['input'];
  /** Your own reference, 1–128 of A–Z a–z 0–9 . _ : / # -, unique per project among transactions and holds (reused: `conflict` with `details.existingId`). */
  reference?: InputMaybe<Scalars['String']['input']>;
  /** The receiver: a SYSTEM wallet id or address in the project (a customer wallet: `validation_error`). */
  to: Scalars['String']['input'];
};

/** A wallet's new status. */
export type SetWalletStatusInput = {
  /** The wallet's project (else `not_found`). */
  projectId: Scalars['ID']['input'];
  /** The new status; the current one again changes nothing. */
  status: WalletStatus;
};

/** Live feeds over WebSocket, on the path of the GraphQL endpoint, with the graphql-transport-ws protocol (the graphql-ws package): the `api_key` goes in the `connection_init` payload ({"api_key": "…"}); a missing or wrong key closes the socket with code 4401. An event reaches subscribers within a second of its commit, whichever instance committed it. */
export type Subscription = {
  __typename?: 'Subscription';
  /** One of your projects' events committed after the subscription starts, each once, in increasing `seq`, whichever instance committed them; only the `types` listed when given. Another owner's or a missing project: an error with `extensions.code` `not_found`, and nothing else. */
  ledgerEvents?: Maybe<LedgerEvent>;
  /** One of your wallets after each change of its balances, holds or status (each event that touches it), from the moment the subscription starts, none skipped; with `initial: true`, the wallet as it is first. Another owner's or a missing wallet: an error with `extensions.code` `not_found`, and nothing else. */
  walletChanged?: Maybe<Wallet>;
};


/** Live feeds over WebSocket, on the path of the GraphQL endpoint, with the graphql-transport-ws protocol (the graphql-ws package): the `api_key` goes in the `connection_init` payload ({"api_key": "…"}); a missing or wrong key closes the socket with code 4401. An event reaches subscribers within a second of its commit, whichever instance committed it. */
export type SubscriptionLedgerEventsArgs = {
  projectId: Scalars['ID']['input'];
  types?: InputMaybe<Array<Scalars['String']['input']>>;
};


/** Live feeds over WebSocket, on the path of the GraphQL endpoint, with the graphql-transport-ws protocol (the graphql-ws package): the `api_key` goes in the `connection_init` payload ({"api_key": "…"}); a missing or wrong key closes the socket with code 4401. An event reaches subscribers within a second of its commit, whichever instance committed it. */
export type SubscriptionWalletChangedArgs = {
  initial?: Scalars['Boolean']['input'];
  walletId: Scalars['ID']['input'];
};

/** A posted movement of an amount of one currency from one wallet to another of the same project: a transfer, a seed (from @mint), a capture, a reversal (back to the sender, or to @mint) or an expiry (to @expired). Posted transactions never change, except `reversedAmount`. */
export type Transaction = {
  __typename?: 'Transaction';
  /** The amount moved, in major units, > 0. */
  amount: Scalars['Decimal']['output'];
  /** The balance, in major units, right after this transaction, of the wallet whose history lists it (in a history or a wallet's transactions); in a mutation's answer, the sender's (the seeded wallet's for `seed`); null when the transaction is read by id (`transaction(id)`, federation references), where no wallet's side is implied. */
  balance?: Maybe<Scalars['Decimal']['output']>;
  /** The asset's symbol. */
  currency: Scalars['String']['output'];
  /** When it was posted (for an expiry: when the points expired). */
  date: Scalars['DateTime']['output'];
  /** The sender's wallet address; "@mint" for a seed. */
  from: Scalars['String']['output'];
  /** The sending wallet; null for a seed (sent by @mint). */
  fromWallet?: Maybe<Wallet>;
  /** The transaction's id (a UUID). */
  id: Scalars['ID']['output'];
  /** The caller's metadata ({} when none was given). */
  metadata: Scalars['JSONObject']['output'];
  /** The id of the project the transaction belongs to. */
  projectId: Scalars['ID']['output'];
  /** The caller's reference, unique per project among transactions and holds; null when none was given. */
  reference?: Maybe<Scalars['String']['output']>;
  /** How much later reversals of this one have sent back so far, in major units ("0" for none); at most `amount`. */
  reversedAmount: Scalars['Decimal']['output'];
  /** The id of the original transaction this one reverses; null when it is not a reversal. */
  reverses?: Maybe<Scalars['ID']['output']>;
  /** The receiver's wallet address; "@mint" for the reversal of a seed, "@expired" for expired points. */
  to: Scalars['String']['output'];
  /** The receiving wallet; null for the reversal of a seed (back to @mint) and for an expiry (to @expired). */
  toWallet?: Maybe<Wallet>;
};

/** One Transaction of a page, with its position in the list. */
export type TransactionEdge = {
  __typename?: 'TransactionEdge';
  /** An opaque position in the list: pass it as `after` to read the items that follow this one. */
  cursor: Scalars['String']['output'];
  /** The Transaction. */
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

/** A wallet's history in one currency: a page of its transactions in it, newest first, each with the wallet's balance right after it, and its balance now (or at `asOf`). */
export type TransactionHistory = {
  __typename?: 'TransactionHistory';
  /** The wallet's balance in this currency: now, or as it was at `asOf` (then `held` and `available` are null). */
  balance: Balance;
  /** The page's items, each with its cursor, in the list's order. */
  edges: Array<TransactionEdge>;
  /** Whether more items follow, and the cursor to read them. */
  pageInfo: PageInfo;
  /** How many items the whole list holds, across every page (whatever `first` and `after`). */
  totalCount: Scalars['Int']['output'];
};

/** A page of a project's transactions matching a filter, newest first (ties by commit order). */
export type TransactionSearchConnection = {
  __typename?: 'TransactionSearchConnection';
  /** The page's transactions, each with its cursor, newest first. */
  edges: Array<TransactionEdge>;
  /** Whether more matches follow; `endCursor` is the `after` of the next page. Pages have no gaps or repeats while postings go on (newer postings are not added to a search already paging). */
  pageInfo: PageInfo;
};

/** A transfer between two wallets of one project. */
export type TransferInput = {
  /** Major units, > 0, with at most the asset's `fractions` decimals (and at most 2⁵³−1 minor units), else `validation_error`. */
  amount: Scalars['Decimal']['input'];
  /** At most 10, judged once the posting is done, after every other check, in order: the first that does not hold refuses it with `condition_failed` (`extensions.details` {index, actual}) and nothing is posted. */
  conditions?: InputMaybe<Array<ConditionInput>>;
  /** An asset symbol of the project (else `not_found`). */
  currency: Scalars['String']['input'];
  /** The sender: a wallet id or address in the project, ACTIVE, whose `available` balance covers the amount. */
  from: Scalars['String']['input'];
  /** Any JSON object of at most 4 KiB serialised, kept with the transaction; default {}. */
  metadata?: InputMaybe<Scalars['JSONObject']['input']>;
  /** One of your projects (else `not_found`). */
  projectId: Scalars['ID']['input'];
  /** Your own reference, 1–128 of A–Z a–z 0–9 . _ : / # -, unique per project among transactions and holds (reused: `conflict` with `details.existingId`). */
  reference?: InputMaybe<Scalars['String']['input']>;
  /** The receiver: a wallet id or address in the project, ACTIVE, not the sender. */
  to: Scalars['String']['input'];
};

/** Changes to an asset: a field absent (or null, except `expiresAfterSeconds`) stays as it is. */
export type UpdateAssetInput = {
  /** Seconds a credit to a customer wallet lives, 1–315360000; an explicit null means never (unlike other fields, null is not "unchanged"). Applies to credits posted after the change. */
  expiresAfterSeconds?: InputMaybe<Scalars['Int']['input']>;
  /** A new display name, 1–200 characters. */
  name?: InputMaybe<Scalars['String']['input']>;
  /** When given, it must be the asset's project (else `not_found`). */
  projectId?: InputMaybe<Scalars['ID']['input']>;
  /** A new symbol (same rules as on creation); refused with `conflict` once the asset has transactions, or when another asset of the project has it. */
  symbol?: InputMaybe<Scalars['String']['input']>;
};

/** A wallet of a project, holding a balance in each of its currencies: a customer's or the program's own (system). */
export type Wallet = {
  __typename?: 'Wallet';
  /** The wallet's address, unique within its project: what transactions show as `from` and `to`, and what mutations accept in place of the id. */
  address: Scalars['String']['output'];
  /** The wallet's balance in each currency of its project, zero included: the primary asset first, then the others oldest first. */
  balances: Array<Balance>;
  /** When the wallet was created: the earliest `asOf` it can be read at. */
  createdAt: Scalars['DateTime']['output'];
  /** The group the wallet is in; null when none. */
  group?: Maybe<WalletGroup>;
  /** The wallet's id (a UUID). */
  id: Scalars['ID']['output'];
  /** The limits that apply to the wallet now, for every currency and direction, with what it used and what remains. */
  limits: Array<LimitUsage>;
  /** The project the wallet belongs to. */
  project: Project;
  /** The id of the project the wallet belongs to. */
  projectId: Scalars['ID']['output'];
  /** Whether the wallet may send and receive. */
  status: WalletStatus;
  /** The wallet's transactions in every currency, as sender or receiver, newest first; each `balance` is this wallet's right after it. */
  transactions: RecentTransactionConnection;
  /** Customer or system wallet. */
  type: WalletType;
  /** When the wallet last changed status (its creation, if never). */
  updatedAt: Scalars['DateTime']['output'];
};


/** A wallet of a project, holding a balance in each of its currencies: a customer's or the program's own (system). */
export type WalletBalancesArgs = {
  asOf?: InputMaybe<Scalars['DateTime']['input']>;
};


/** A wallet of a project, holding a balance in each of its currencies: a customer's or the program's own (system). */
export type WalletTransactionsArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  asOf?: InputMaybe<Scalars['DateTime']['input']>;
  first?: Scalars['Int']['input'];
};

/** A page of wallets, oldest first (creation order). */
export type WalletConnection = {
  __typename?: 'WalletConnection';
  /** The page's items, each with its cursor, in the list's order. */
  edges: Array<WalletEdge>;
  /** Whether more items follow, and the cursor to read them. */
  pageInfo: PageInfo;
  /** How many items the whole list holds, across every page (whatever `first` and `after`). */
  totalCount: Scalars['Int']['output'];
};

/** One Wallet of a page, with its position in the list. */
export type WalletEdge = {
  __typename?: 'WalletEdge';
  /** An opaque position in the list: pass it as `after` to read the items that follow this one. */
  cursor: Scalars['String']['output'];
  /** The Wallet. */
  node: Wallet;
};

/** A group of wallets of one project, in a tree at most 8 deep: its balances are summed over every wallet of the group and of its subgroups, at every depth. */
export type WalletGroup = {
  __typename?: 'WalletGroup';
  /** Sums over every wallet of the group and of its subgroups, one entry per currency one of them holds, in currency order. With `asOf`: the posted balances then of its current wallets (held, available and incoming null). */
  balances: Array<GroupBalance>;
  /** When the group was created. */
  createdAt: Scalars['DateTime']['output'];
  /** Its direct subgroups, oldest first. */
  groups: Array<WalletGroup>;
  /** The group's id (a UUID). */
  id: Scalars['ID']['output'];
  /** The caller's metadata, or null. */
  metadata?: Maybe<Scalars['JSONObject']['output']>;
  /** The group's name (1 to 100 characters). */
  name: Scalars['String']['output'];
  /** Its parent group; null for a root. */
  parent?: Maybe<WalletGroup>;
  /** The id of the project the group belongs to. */
  projectId: Scalars['ID']['output'];
  /** The group's own wallets (not its subgroups'), oldest first. */
  wallets: WalletConnection;
};


/** A group of wallets of one project, in a tree at most 8 deep: its balances are summed over every wallet of the group and of its subgroups, at every depth. */
export type WalletGroupBalancesArgs = {
  asOf?: InputMaybe<Scalars['DateTime']['input']>;
};


/** A group of wallets of one project, in a tree at most 8 deep: its balances are summed over every wallet of the group and of its subgroups, at every depth. */
export type WalletGroupWalletsArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  first?: Scalars['Int']['input'];
};

/** A page of wallet groups, oldest first (creation order). */
export type WalletGroupConnection = {
  __typename?: 'WalletGroupConnection';
  /** The page's items, each with its cursor, in the list's order. */
  edges: Array<WalletGroupEdge>;
  /** Whether more items follow, and the cursor to read them. */
  pageInfo: PageInfo;
  /** How many items the whole list holds, across every page (whatever `first` and `after`). */
  totalCount: Scalars['Int']['output'];
};

/** One WalletGroup of a page, with its position in the list. */
export type WalletGroupEdge = {
  __typename?: 'WalletGroupEdge';
  /** An opaque position in the list: pass it as `after` to read the items that follow this one. */
  cursor: Scalars['String']['output'];
  /** The WalletGroup. */
  node: WalletGroup;
};

/** Whether a wallet may move money: ACTIVE ⇄ SUSPENDED; either → CLOSED (only with every balance zero and no pending hold); CLOSED is final. */
export type WalletStatus =
  /** Sends and receives. New wallets are active. */
  | 'ACTIVE'
  /** Neither sends nor receives, for good. */
  | 'CLOSED'
  /** Neither sends nor receives (`wallet_inactive`) until made ACTIVE again. */
  | 'SUSPENDED';

/** A wallet's kind, fixed at creation; each counts against its own plan quota. */
export type WalletType =
  /** A customer's wallet: earns and spends; credits of an expiring asset expire. */
  | 'CUSTOMER'
  /** The program's own wallet: the only kind `seed` mints into; its funds never expire. */
  | 'SYSTEM';

/** A call of the inbound webhook (the `webhook` mutation or POST /webhook) as it was recorded: every call that passed validation, refused flows included. */
export type WebhookEvent = {
  __typename?: 'WebhookEvent';
  /** The flow called: "reward", "redeem" or any other name (recorded only). */
  flowId: Scalars['String']['output'];
  /** The recorded call's id. */
  id: Scalars['ID']['output'];
  /** The flow's outcome in words; for a refusal, it names the error code (e.g. insufficient_funds). */
  message: Scalars['String']['output'];
  /** The id of the project it was called for. */
  projectId: Scalars['ID']['output'];
  /** When the call was recorded. */
  receivedAt: Scalars['DateTime']['output'];
  /** Whether the flow ran: false when it was refused (nothing was posted). */
  success: Scalars['Boolean']['output'];
  /** The id of the transaction a successful reward or redeem posted; null otherwise. */
  transactionId?: Maybe<Scalars['ID']['output']>;
  /** The `values` object of the call, as sent. */
  values: Scalars['JSONObject']['output'];
};

/** A page of a project's webhook calls, oldest first. */
export type WebhookEventConnection = {
  __typename?: 'WebhookEventConnection';
  /** The page's items, each with its cursor, in the list's order. */
  edges: Array<WebhookEventEdge>;
  /** Whether more items follow, and the cursor to read them. */
  pageInfo: PageInfo;
  /** How many items the whole list holds, across every page (whatever `first` and `after`). */
  totalCount: Scalars['Int']['output'];
};

/** One WebhookEvent of a page, with its position in the list. */
export type WebhookEventEdge = {
  __typename?: 'WebhookEventEdge';
  /** An opaque position in the list: pass it as `after` to read the items that follow this one. */
  cursor: Scalars['String']['output'];
  /** The WebhookEvent. */
  node: WebhookEvent;
};

/** A call of the inbound webhook: a named flow and its values. */
export type WebhookInput = {
  /** The flow, 1–200 characters: "reward" and "redeem" post a transfer; any other name is recorded only. */
  flowId: Scalars['String']['input'];
  /** One of your projects (else `not_found`). */
  projectId: Scalars['ID']['input'];
  /** The flow's values. reward: `to` (a customer wallet id or address), `amount` in points or `fiatAmount` (with the project's supportExchangeRate), optional `from` (a system wallet; default: the project's oldest active one) and `currency` (default: the primary asset). redeem: `from` (a customer wallet), `amount`, optional `to` (a system wallet, same default) and `currency`. Pass the object in a variable to keep every digit of a number. */
  values: Scalars['JSONObject']['input'];
};

/** The answer of the `webhook` mutation for a flow that ran (a refused flow is an error instead, and is recorded all the same). */
export type WebhookResult = {
  __typename?: 'WebhookResult';
  /** What the flow did, in words. */
  message: Scalars['String']['output'];
  /** Always true: a refusal is an error instead. */
  success: Scalars['Boolean']['output'];
};
