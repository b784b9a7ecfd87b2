import type { Principal } from '../auth/api-key.service.js';
import { notFound, validationError } from '../errors.js';
import { isUuid } from '../shared/ids.js';
import type { OwnedWallet, OwnershipRepository } from './ownership.repository.js';

/**
 * Tenancy checks of the features (CONTRACT §18): another owner's project or wallet is
 * `not_found`, exactly as a missing one, so a caller never learns what others have.
 */
export class OwnershipService {
  constructor(private readonly repository: OwnershipRepository) {}

  /** Nothing when the caller owns the project; not_found otherwise. */
  async requireProject(principal: Principal, projectId: number): Promise<void> {
    if (!(await this.repository.ownsProject(principal.ownerId, projectId))) throw notFound('project', projectId);
  }

  /**
   * `ref` is a wallet id first; otherwise, or when no wallet of the caller has that id, an
   * address within `projectId` (required then).
   */
  async wallet(principal: Principal, ref: string, projectId?: number): Promise<OwnedWallet> {
    const wallet = await this.repository.findWallet(principal.ownerId, ref, isUuid(ref) ? ref : null, projectId ?? null);
    if (wallet) return wallet;
    if (projectId === undefined && !isUuid(ref)) throw validationError('projectId', 'is required when walletId is an address');
    throw notFound('wallet', ref);
  }

  /** The caller's wallet `ref` (an id or an address) of project `projectId`; not_found when it is none of the project's. */
  async walletOf(principal: Principal, ref: string, projectId: number): Promise<OwnedWallet> {
    const wallet = await this.repository.findWallet(principal.ownerId, ref, isUuid(ref) ? ref : null, projectId);
    if (!wallet || wallet.projectId !== projectId) throw notFound('wallet', ref);
    return wallet;
  }
}
