import type { SweepRound, SweepSource } from '../shared/expiry-sweeper.js';
import type { HoldRepository } from './hold.repository.js';

/**
 * The maturity half of the background sweeper (CONTRACT §26): beside the expiry halves (holds,
 * lots), one round captures the maturing holds that fall due, project by project, each project's
 * part its own short database transaction (holds_mature_sweep.sql), so the work is per project
 * (CONTRACT §25) and one project's failure leaves the others' captures committed. Exactly once
 * across instances and busy wallets skipped: see holds_mature_sweep.sql.
 *
 * `batchSize` bounds the holds taken per round across the projects; a round that used it up is
 * full (the sweeper runs another at once).
 */
export class MaturitySweep implements SweepSource {
  constructor(private readonly holds: HoldRepository) {}

  async sweep(batchSize: number): Promise<SweepRound> {
    const round: SweepRound = { expired: 0, released: 0, matured: 0, skipped: 0, fullRound: false, maxLagMs: null };
    let left = batchSize;
    for (const projectId of await this.holds.projectsMaturing()) {
      if (left <= 0) {
        round.fullRound = true;
        break;
      }
      const part = await this.holds.matureDue(projectId, left);
      const settled = part.matured + part.refused + part.voided;
      round.matured! += settled;
      round.skipped += part.busy;
      left -= settled;
      if (part.fullRound) round.fullRound = true;
      if (part.maxLagMs !== null) round.maxLagMs = Math.max(round.maxLagMs ?? 0, part.maxLagMs);
    }
    return round;
  }
}
