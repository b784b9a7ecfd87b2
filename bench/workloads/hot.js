// `hot` workload: POST /transactions, every transfer leaves the one system wallet (the reward
// pattern) towards a random customer: every request needs the same balance row.

import { TRANSFER_AMOUNT } from './transfers.js';

export function hotWorkload(fixture) {
  const customers = fixture.customers;
  const body = () =>
    JSON.stringify({
      amount: TRANSFER_AMOUNT,
      currency: fixture.currency,
      from: fixture.systemWallet.id,
      to: customers[Math.floor(Math.random() * customers.length)].id,
      projectId: fixture.projectId,
    });
  return {
    name: 'hot',
    description: `POST /transactions: system wallet -> random customer among ${customers.length}, ${TRANSFER_AMOUNT} ${fixture.currency}`,
    pgbench: 'hot',
    requestsFor: () => [
      {
        method: 'POST',
        path: '/transactions',
        headers: { 'content-type': 'application/json', api_key: fixture.apiKey },
        setupRequest: (req) => ({ ...req, body: body() }),
      },
    ],
    sample: () => ({ method: 'POST', path: '/transactions', body: body() }),
    moves: true,
  };
}
