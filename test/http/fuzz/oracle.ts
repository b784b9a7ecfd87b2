import { ERROR_STATUS } from '../../../src/domain/errors.js';
import type { Queryable } from '../../system/support/invariants.js';

/** Why a REST answer breaks the contract for a certainly-invalid request (null: it does not). */
export function restAnswerProblem(status: number, body: unknown): string | null {
  if (status >= 500) return `server error ${status}`;
  if (status < 400) return `wrongful success ${status}`;
  if (status === 401 || status === 429) return `unexpected ${status}`;
  return errorBodyProblem(status, body);
}

export function errorBodyProblem(status: number, body: unknown): string | null {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return `error body is not an object: ${JSON.stringify(body)}`;
  const { code, message, details, ...rest } = body as Record<string, unknown>;
  if (Object.keys(rest).length) return `error body has extra fields ${Object.keys(rest).join(', ')}`;
  if (typeof code !== 'string' || !(code in ERROR_STATUS)) return `code ${JSON.stringify(code)} is not in the closed set`;
  if (ERROR_STATUS[code as keyof typeof ERROR_STATUS] !== status) return `code ${code} answered with status ${status}`;
  if (typeof message !== 'string' || message.length === 0) return 'message is not a non-empty string';
  if (/\n\s+at /.test(message)) return 'message carries a stack trace';
  if (!details || typeof details !== 'object' || Array.isArray(details)) return `details is not an object: ${JSON.stringify(details)}`;
  return null;
}

/** Why a GraphQL answer breaks the contract for a certainly-invalid mutation (null: it does not). */
export function graphqlAnswerProblem(status: number, body: any, mutation: string | null): string | null {
  if (status >= 500) return `server error ${status}`;
  // Refused by the HTTP pipeline before GraphQL runs (body checks): the contract's error body.
  if (status >= 400 && body && typeof body === 'object' && 'code' in body && !('errors' in body)) return restAnswerProblem(status, body);
  if (status !== 200 && status !== 400) return `unexpected status ${status}`;
  if (!body || !Array.isArray(body.errors) || body.errors.length === 0) return `no errors: ${JSON.stringify(body)?.slice(0, 300)}`;
  for (const error of body.errors) {
    const code = error?.extensions?.code;
    if (typeof code !== 'string' || !(code in ERROR_STATUS)) return `extensions.code ${JSON.stringify(code)} is not in the closed set`;
    if (code === 'internal_error') return 'internal_error';
    if (typeof error.message !== 'string' || /\n\s+at /.test(error.message)) return 'message missing or a stack trace';
  }
  if (mutation && body.data && body.data[mutation] != null) return `wrongful data ${JSON.stringify(body.data)}`;
  return null;
}

/** Everything a refused write must leave untouched. */
export async function stateSnapshot(db: Queryable): Promise<unknown> {
  const [balances, transactions, projects, assets, wallets, holds, references] = await Promise.all([
    db.query(`SELECT wallet_id, asset_id, amount::text, held::text, credit_limit::text FROM balances ORDER BY wallet_id, asset_id`),
    db.query(`SELECT count(*)::text AS n, coalesce(sum(amount), 0)::text AS total FROM transactions`),
    db.query(`SELECT id, name, type, exchange_rate::text, support_exchange_rate, metadata, asset_id, updated_at FROM projects ORDER BY id`),
    db.query(`SELECT id, project_id, name, symbol, fractions, updated_at FROM assets ORDER BY seq`),
    db.query(`SELECT id, address, type, status, updated_at FROM wallets ORDER BY seq`),
    db.query(`SELECT id, status, captured_amount::text, updated_at FROM holds ORDER BY seq`),
    db.query(`SELECT project_id, reference, id FROM ledger_references ORDER BY project_id, reference`),
  ]);
  return { balances, transactions, projects, assets, wallets, holds, references };
}

/**
 * Why a GraphQL answer to a certainly-refused query breaks the contract (null: it does not):
 * errors with contract codes, or no error and nothing found (`root` null, `_entities` all null).
 */
export function graphqlQueryProblem(status: number, body: any, root: string | null): string | null {
  if (status === 200 && body && !body.errors && root) {
    const value = body.data?.[root];
    if (value === null || (Array.isArray(value) && value.every((item) => item === null))) return null;
    return `wrongful data ${JSON.stringify(body.data).slice(0, 200)}`;
  }
  return graphqlAnswerProblem(status, body, root);
}

/**
 * Money is conserved: every stored balance is its wallet's history replayed (received − sent),
 * and every asset's balances add up to what was minted less what left to @mint or @expired.
 */
export async function conservationProblems(db: Queryable): Promise<string[]> {
  const wallets = await db.query<{ wallet_id: string; stored: string; replayed: string }>(
    `SELECT b.wallet_id, b.amount::text AS stored,
            (coalesce((SELECT sum(amount) FROM transactions WHERE to_wallet_id = b.wallet_id AND asset_id = b.asset_id), 0)
             - coalesce((SELECT sum(amount) FROM transactions WHERE from_wallet_id = b.wallet_id AND asset_id = b.asset_id), 0))::text AS replayed
       FROM balances b`,
  );
  const assets = await db.query<{ asset_id: string; held: string; issued: string }>(
    `SELECT a.id AS asset_id, coalesce((SELECT sum(amount) FROM balances WHERE asset_id = a.id), 0)::text AS held,
            (coalesce((SELECT sum(amount) FROM transactions WHERE asset_id = a.id AND from_wallet_id IS NULL), 0)
             - coalesce((SELECT sum(amount) FROM transactions WHERE asset_id = a.id AND to_wallet_id IS NULL), 0))::text AS issued
       FROM assets a`,
  );
  return [
    ...wallets.filter((w) => w.stored !== w.replayed).map((w) => `wallet ${w.wallet_id}: balance ${w.stored}, history ${w.replayed}`),
    ...assets.filter((a) => a.held !== a.issued).map((a) => `asset ${a.asset_id}: balances ${a.held}, issued ${a.issued}`),
  ];
}
