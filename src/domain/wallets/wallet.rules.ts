import { z } from 'zod';
import { ProjectIdRule } from '../shared/ids.js';

/** Field rules of a wallet (CONTRACT §3), shared by the service and the REST schemas. */
export const WalletTypeRule = z.enum(['customer', 'system']);
export const WalletStatusRule = z.enum(['active', 'suspended', 'closed']);
type Status = z.infer<typeof WalletStatusRule>;

/**
 * What setting a wallet's status to another does (CONTRACT §3): `unchanged` (the current status
 * again: a 200 no-op, `closed` included), `allowed`, `when_empty` (closing: only with every
 * balance at zero, else 409 wallet_not_empty), `refused` (closed is final: 409 conflict).
 */
export type StatusTransition = 'unchanged' | 'allowed' | 'when_empty' | 'refused';

/** Every pair, from (rows) → to (columns). */
export const STATUS_TRANSITIONS: Readonly<Record<Status, Readonly<Record<Status, StatusTransition>>>> = {
  active: { active: 'unchanged', suspended: 'allowed', closed: 'when_empty' },
  suspended: { active: 'allowed', suspended: 'unchanged', closed: 'when_empty' },
  closed: { active: 'refused', suspended: 'refused', closed: 'unchanged' },
};
/** `@` may not lead: it marks reserved sources such as `@mint`. */
export const AddressRule = z.string().regex(/^[A-Za-z0-9._:-][A-Za-z0-9._:@-]{0,127}$/, 'must be 1 to 128 of A-Z a-z 0-9 . _ : @ - and not start with @');

export const CreateWalletRules = z.strictObject({ projectId: ProjectIdRule, address: AddressRule.optional() });
export const SetWalletStatusRules = z.strictObject({ projectId: ProjectIdRule, status: WalletStatusRule });
export const WalletListRules = z.object({ projectId: ProjectIdRule.optional() });

/** Cursor pagination of the GraphQL connections: `first` 1–100, `after` an opaque cursor. */
export const WalletSliceRules = z.object({
  type: WalletTypeRule.optional(),
  first: z.number().int().min(0).max(100).default(20),
  after: z.string().regex(/^\d{1,19}$/, 'must be a cursor of this connection').nullable().optional(),
});
