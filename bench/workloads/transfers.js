// `transfers` workload: POST /transactions, a random customer wallet pays 0.01 PTS to a
// random other customer wallet among the 1,000 seeded ones (uniform contention).

export const TRANSFER_AMOUNT = 0.01;

function randomPair(n) {
  const from = Math.floor(Math.random() * n);
  let to = Math.floor(Math.random() * (n - 1));
  if (to >= from) to += 1;
  return [from, to];
}

export function transfersWorkload(fixture) {
  const customers = fixture.customers;
  const body = () => {
    const [from, to] = randomPair(customers.length);
    return JSON.stringify({
      amount: TRANSFER_AMOUNT,
      currency: fixture.currency,
      from: customers[from].id,
      to: customers[to].id,
      projectId: fixture.projectId,
    });
  };
  return {
    name: 'transfers',
    description: `POST /transactions: random customer -> random other customer among ${customers.length}, ${TRANSFER_AMOUNT} ${fixture.currency}`,
    pgbench: 'uniform',
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
