// The baseline's nested read: ONE hand-written SQL query (json_build_object/json_agg + LATERAL)
// that returns the whole GraphQL answer as JSON text, keys named from READ_SHAPE.

import { READ_SHAPE } from '../workloads/read.js';

const lit = (name) => `'${String(name).replace(/'/g, "''")}'`;

/** Minor units (bigint) to an exact numeric of major units without trailing zeros: 1250, 2 -> 12.5. */
const numericMajor = (amount, fractions) => `trim_scale(${amount}::numeric * power(10::numeric, -${fractions}))`;

export function buildReadSql(shape = READ_SHAPE) {
  const { project: P, wallet: W, balance: B, transaction: T, edges, node } = shape;
  const asText = (expression, encoding) => (encoding === 'string' ? `(${expression})::text` : expression);
  const major = (amount, fractions) => asText(numericMajor(amount, fractions), shape.encoding.money);
  const perWallet = Number(shape.transactionsPerWallet);
  return `
SELECT json_build_object('data', json_build_object(${lit(shape.root)}, (
  SELECT json_build_object(
           ${lit(P.id)}, ${asText('p.id', shape.encoding.projectId)},
           ${lit(P.name)}, p.name,
           ${lit(P.wallets)}, json_build_object(${lit(edges)}, coalesce(ws.edges, '[]'::json)))
    FROM projects p
    LEFT JOIN LATERAL (
      SELECT json_agg(json_build_object(${lit(node)}, json_build_object(
               ${lit(W.id)}, w.id,
               ${lit(W.address)}, w.address,
               ${lit(W.balances)}, bl.list,
               ${lit(W.transactions)}, json_build_object(${lit(edges)}, tx.edges))) ORDER BY w.seq) AS edges
        FROM (SELECT id, address, seq FROM wallets WHERE project_id = p.id ORDER BY seq LIMIT $3) w
        CROSS JOIN LATERAL (
          SELECT coalesce(json_agg(json_build_object(
                   ${lit(B.currency)}, a.symbol,
                   ${lit(B.balance)}, ${major('coalesce(b.amount, 0)', 'a.fractions')}) ORDER BY a.seq), '[]'::json) AS list
            FROM assets a
            LEFT JOIN balances b ON b.wallet_id = w.id AND b.asset_id = a.id
           WHERE a.project_id = p.id
        ) bl
        CROSS JOIN LATERAL (
          SELECT coalesce(json_agg(json_build_object(${lit(node)}, json_build_object(
                   ${lit(T.id)}, t.id,
                   ${lit(T.amount)}, ${major('t.amount', 'a.fractions')},
                   ${lit(T.currency)}, a.symbol,
                   ${lit(T.from)}, coalesce(fw.address, '@mint'),
                   ${lit(T.to)}, tw.address,
                   ${lit(T.date)}, to_char(t.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))) ORDER BY t.seq DESC), '[]'::json) AS edges
            FROM (
              SELECT * FROM (
                (SELECT seq, id, asset_id, from_wallet_id, to_wallet_id, amount, created_at
                   FROM transactions WHERE from_wallet_id = w.id ORDER BY seq DESC LIMIT ${perWallet})
                UNION ALL
                (SELECT seq, id, asset_id, from_wallet_id, to_wallet_id, amount, created_at
                   FROM transactions WHERE to_wallet_id = w.id ORDER BY seq DESC LIMIT ${perWallet})
              ) recent ORDER BY seq DESC LIMIT ${perWallet}
            ) t
            JOIN assets a ON a.id = t.asset_id
            LEFT JOIN wallets fw ON fw.id = t.from_wallet_id
            JOIN wallets tw ON tw.id = t.to_wallet_id
        ) tx
    ) ws ON true
   WHERE p.id = $1 AND p.owner_id = $2
)))::text AS body`;
}

/**
 * Federation's `_entities` for Wallet representations ($1: their ids, in order; $2: the
 * caller): each wallet with id, address and balances (one per asset of its project, zero
 * included), or null when it is not the caller's, in the order asked. ONE query.
 */
export function buildEntitiesSql(shape = READ_SHAPE) {
  const { wallet: W, balance: B } = shape;
  const major = (amount, fractions) => {
    const text = numericMajor(amount, fractions);
    return shape.encoding.money === 'string' ? `(${text})::text` : text;
  };
  return `
SELECT json_build_object('data', json_build_object('_entities', coalesce(json_agg(
         CASE WHEN w.id IS NULL THEN NULL
              ELSE json_build_object(${lit(W.id)}, w.id, ${lit(W.address)}, w.address, ${lit(W.balances)}, bl.list) END
         ORDER BY r.n), '[]'::json)))::text AS body
  FROM unnest($1::uuid[]) WITH ORDINALITY AS r (id, n)
  LEFT JOIN wallets w ON w.id = r.id AND w.owner_id = $2
  LEFT JOIN LATERAL (
    SELECT coalesce(json_agg(json_build_object(
             ${lit(B.currency)}, a.symbol,
             ${lit(B.balance)}, ${major('coalesce(b.amount, 0)', 'a.fractions')}) ORDER BY a.seq), '[]'::json) AS list
      FROM assets a
      LEFT JOIN balances b ON b.wallet_id = w.id AND b.asset_id = a.id
     WHERE a.project_id = w.project_id
  ) bl ON true`;
}
