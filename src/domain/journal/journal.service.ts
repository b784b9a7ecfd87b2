import type { Principal } from '../auth/api-key.service.js';
import type { OwnershipService } from '../ownership/ownership.service.js';
import { ProjectIdRule } from '../shared/ids.js';
import { withinOneWait, type LongReadSlots } from '../shared/long-read-slots.js';
import { checkField, checkInput } from '../shared/validation.js';
import { SeqPageRules } from '../shared/paging.js';
import type { JournalRepository } from './journal.repository.js';
import type { JournalVerifier } from './journal-verifier.js';
import type { JournalPage, JournalPageQuery, VerifyReport } from './journal.types.js';

/** A project's journal (CONTRACT §22): its entries by page, and verify. Another owner's project is `not_found`. */
export class JournalService {
  constructor(
    private readonly journal: JournalRepository,
    private readonly verifier: JournalVerifier,
    private readonly ownership: OwnershipService,
    private readonly slots: LongReadSlots,
  ) {}

  async page(principal: Principal, query: JournalPageQuery): Promise<JournalPage> {
    const { projectId, after, limit } = checkInput(SeqPageRules, query);
    await this.ownership.requireProject(principal, projectId);
    const rows = await this.journal.page(projectId, String(after), limit + 1);
    const entries = rows.slice(0, limit);
    return { entries, after: String(after), nextAfter: entries.at(-1)?.seq ?? String(after), hasMore: rows.length > limit };
  }

  /**
   * Verifies the project's journal, holding one of the instance's long-read slots meanwhile
   * (CONTRACT §18: 429 `rate_limited` past 1 per owner, 503 `timeout` when none came free within
   * 5 s). `signal`: the client went away; the verify stops at its next chunk and gives the slot back.
   */
  async verify(principal: Principal, projectId: number, signal?: AbortSignal): Promise<VerifyReport> {
    checkField('projectId', ProjectIdRule, projectId);
    await this.ownership.requireProject(principal, projectId);
    const asked = Date.now();
    const release = await this.slots.enter(principal.ownerId, 'verify', signal);
    try {
      return await withinOneWait(asked, () => this.verifier.verify(projectId, signal));
    } finally {
      release();
    }
  }
}
