import type { Paging } from '../shared/paging.js';
import type { Annotations } from '../ledger/ledger.rules.js';
import type { Movement } from '../ledger/ledger.types.js';
import type { ConditionInput } from '../ledger/conditions.js';

export type HoldStatus = 'pending' | 'captured' | 'voided' | 'expired';
export const HOLD_STATUSES = ['pending', 'captured', 'voided', 'expired'] as const;

/** A hold as read (CONTRACT §10): `status` and `updatedAt` already say `expired` from the instant its expires_at passed. */
export interface HoldView extends Movement<string> {
  from: string;
  to: string;
  status: HoldStatus;
  capturedAmount: bigint;
  transactionId: string | null;
  expiresAt: Date | null;
  /** When a maturing hold captures itself (CONTRACT §26); null for an ordinary hold. */
  maturesAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
  reference: string | null;
  metadata: Record<string, unknown>;
}

export interface CreateHoldInput extends Annotations {
  projectId: number;
  currency: string;
  from: string;
  to: string;
  amount: number | string;
  expiresIn?: number | null;
  /** A maturing hold (CONTRACT §26): seconds after creation, or an ISO 8601 instant (REST) / Date (GraphQL). */
  matureIn?: number | null;
  matureAt?: string | Date | null;
}

export interface CaptureHoldInput {
  projectId: number;
  amount?: number | string | null;
  /** Judged once the capture is done, last (CONTRACT §28); parties: the hold's sender and receiver. */
  conditions?: ConditionInput[] | null;
}

export interface VoidHoldInput {
  projectId: number;
}

export interface HoldFilter {
  projectId: number;
  walletId?: string;
  status?: HoldStatus;
}

/** By page (REST) or by keyset (GraphQL), CONTRACT §7 and issue 19. */
export type HoldListQuery = HoldFilter & Paging;
