import type { SweepRound, SweepSource } from '../shared/expiry-sweeper.js';
import type { HoldRepository } from './hold.repository.js';

/**
 * Holds captured per database transaction. A round holds both wallets of its holds until it
 * commits, and a program's wallet is usually the sender of all of them: in a round of 500 its
 * postings waited about half a second, and each capture's update of the same balance row walks the
 * versions the round's earlier captures left (about 1 ms a capture at 500, 0.8 at 50, measured by
 * pg_stat_xact_user_functions). 100 keeps both short.
 */
export const MATURITY_ROUND = 100;

/**
 * The maturity half of the background sweeper (CONTRACT §26): beside the expiry halves (holds,
 * lots), one round captures the maturing holds that fall due, project by project, each project's
 * part its own short database transaction (holds_mature_sweep.sql), so the work is per project
 * (CONTRACT §25) and one project's failure leaves the others' captures committed. Exactly once
 * across instances and busy wallets skipped: see holds_mature_sweep.sql.
 *
 * `batchSize` bounds the holds taken per sweeper round across the projects, in transactions of
 * MATURITY_ROUND; a round that used it up is full (the sweeper runs another at once).
 */
export class MaturitySweep implements SweepSource {
  constructor(
    private readonly holds: HoldRepository,
    /** Called after each transaction that settled holds: their events are numbered at once (CONTRACT §16: within 1 s), not after the whole round. */
    private readonly onCommit: () => void = () => undefined,
  ) {}

  async sweep(batchSize: number): Promise<SweepRound> {
    const round: SweepRound = { expired: 0, released: 0, matured: 0, skipped: 0, fullRound: false, maxLagMs: null };
    let left = batchSize;
    for (const projectId of await this.holds.projectsMaturing()) {
      if (left <= 0) {
        round.fullRound = true;
        break;
      }
      // the project's due holds, MATURITY_ROUND per transaction, until none is left or the round's share is spent
      for (;;) {
        const part = await this.holds.matureDue(projectId, Math.min(left, MATURITY_ROUND));
        const settled = part.matured + part.refused + part.voided;
        round.matured! += settled;
        left -= settled;
        if (settled > 0) this.onCommit();
        if (part.maxLagMs !== null) round.maxLagMs = Math.max(round.maxLagMs ?? 0, part.maxLagMs);
        if (!part.fullRound) {
          round.skipped += part.busy;
          break;
        }
        if (left <= 0) {
          round.fullRound = true;
          break;
        }
      }
    }
    return round;
  }
}
