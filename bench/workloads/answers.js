// The numbers a GraphQL answer states, whoever's naming it uses: compared across arms on the
// same data before the load (PostGraphile encodes money as minor units and names fields its
// own way, so the comparison is of counts, sums and ids rather than of the JSON text).

import { createHash } from 'node:crypto';

/** Decimal text of major units ("12.5") to bigint minor units, exactly. */
export function minorUnits(text, fractions) {
  const [whole, decimals = ''] = String(text).split('.');
  return BigInt(whole + decimals.padEnd(fractions, '0'));
}

/** wallets: [{ id, balances: [bigint minor], transactions: [{ id, amount: bigint minor }] }] */
export function answerSummary(wallets) {
  const txs = wallets.flatMap((w) => w.transactions ?? []);
  const sum = (values) => values.reduce((a, b) => a + b, 0n).toString();
  const digest = createHash('sha1');
  for (const w of wallets) digest.update(`${w.id};${(w.transactions ?? []).map((t) => t.id).join(',')}\n`);
  return {
    wallets: wallets.length,
    transactions: txs.length,
    balanceSum: sum(wallets.flatMap((w) => w.balances)),
    transactionAmountSum: sum(txs.map((t) => t.amount)),
    ids: digest.digest('hex').slice(0, 12),
  };
}
