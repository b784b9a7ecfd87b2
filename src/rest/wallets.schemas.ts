import { z } from 'zod';
import type { HistoryService } from '../domain/ledger/history.service.js';
import { groupByWallet } from '../domain/ledger/ledger.types.js';
import { AddressRule, WalletStatusRule, WalletTypeRule } from '../domain/wallets/wallet.rules.js';
import type { WalletView } from '../domain/wallets/wallet.types.js';
import { BalanceAsOfBody, balanceAsOfJson, BalanceBody, balanceJson } from '../json/balance.json.js';
import { PaginationBody } from '../json/page.json.js';
import { TransactionBody, transactionJson } from '../json/transaction.json.js';
import { WalletBody, walletJson } from '../json/wallet.json.js';
import { AsOfQuery, PageQuery, ProjectId, ProjectIdQuery, Uuid } from './schemas.js';

export const RECENT_TRANSACTIONS = 20;

export const WalletTypeParams = z.strictObject({ type: WalletTypeRule });
export const WalletIdParams = z.strictObject({ id: Uuid });
export const WalletQuery = z.strictObject({ asOf: AsOfQuery.optional() });
export const WalletListQuery = z.strictObject({ projectId: ProjectIdQuery.optional(), ...PageQuery });
export const CreateWalletBody = z.strictObject({ projectId: ProjectId, address: AddressRule.optional() }).meta({ id: 'CreateWalletRequest' });
export const WalletStatusBody = z.strictObject({ projectId: ProjectId, status: WalletStatusRule }).meta({ id: 'SetWalletStatusRequest' });

/** List and detail responses add every balance of the project's currencies and the 20 newest transactions. */
export const WalletWithActivityBody = WalletBody.extend({ balance: z.array(BalanceBody), transactions: z.array(TransactionBody) }).meta({
  id: 'WalletWithActivity',
});

export const WalletListBody = z.object({ wallets: z.array(WalletWithActivityBody), pagination: PaginationBody }).meta({ id: 'WalletList' });

/** `GET /wallets/{id}?asOf=` (CONTRACT §14): posted balances and the 20 newest transactions at that instant. */
export const WalletAsOfBody = WalletBody.extend({ balance: z.array(BalanceAsOfBody), transactions: z.array(TransactionBody) }).meta({ id: 'WalletAsOf' });

type WalletWithActivityJson = z.infer<typeof WalletWithActivityBody>;
type WalletAsOfJson = z.infer<typeof WalletAsOfBody>;

/** Balances and recent transactions of all the wallets in two statements, whatever their number. */
export async function walletsWithActivity(ledger: HistoryService, wallets: WalletView[]): Promise<WalletWithActivityJson[]> {
  const ids = wallets.map((w) => w.id);
  const [balances, recent] = await Promise.all([ledger.balancesOf(ids), ledger.recentOf(ids, RECENT_TRANSACTIONS)]);
  const balancesOf = groupByWallet(ids, balances);
  const recentOf = groupByWallet(ids, recent);
  return wallets.map((wallet, i) => ({
    ...walletJson(wallet),
    balance: balancesOf[i].map(balanceJson),
    transactions: recentOf[i].map(transactionJson),
  }));
}

/** One wallet as it was at `asOf`, in two statements (the service refuses an instant in the future or before the wallet). */
export async function walletAsOf(ledger: HistoryService, wallet: WalletView, asOf: Date): Promise<WalletAsOfJson> {
  const { balances, recent } = await ledger.activityAsOf(wallet, asOf, RECENT_TRANSACTIONS);
  return { ...walletJson(wallet), balance: balances.map(balanceAsOfJson), transactions: recent.map(transactionJson) };
}
