import { z } from 'zod';
import type { Principal } from '../auth/api-key.service.js';
import type { OwnershipService } from '../ownership/ownership.service.js';
import { ProjectIdRule } from '../shared/ids.js';
import { checkField, checkInput } from '../shared/validation.js';
import type { JournalRepository } from './journal.repository.js';
import type { JournalVerifier } from './journal-verifier.js';
import type { JournalPage, JournalPageQuery, VerifyReport } from './journal.types.js';

const PageRules = z.object({
  projectId: ProjectIdRule,
  // a seq, as §16's event pages: a number, or its digits as text
  after: z
    .union([z.number(), z.string().regex(/^\d{1,16}$/, 'must be a seq (an integer)').transform(Number)])
    .pipe(z.number().int().min(0).max(Number.MAX_SAFE_INTEGER))
    .default(0),
  limit: z.number().int().min(1).max(100).default(20),
});

/** A project's journal (CONTRACT §22): its entries by page, and verify. Another owner's project is `not_found`. */
export class JournalService {
  constructor(
    private readonly journal: JournalRepository,
    private readonly verifier: JournalVerifier,
    private readonly ownership: OwnershipService,
  ) {}

  async page(principal: Principal, query: JournalPageQuery): Promise<JournalPage> {
    const { projectId, after, limit } = checkInput(PageRules, query);
    await this.ownership.requireProject(principal, projectId);
    const rows = await this.journal.page(projectId, String(after), limit + 1);
    const entries = rows.slice(0, limit);
    return { entries, after: String(after), nextAfter: entries.at(-1)?.seq ?? String(after), hasMore: rows.length > limit };
  }

  async verify(principal: Principal, projectId: number): Promise<VerifyReport> {
    checkField('projectId', ProjectIdRule, projectId);
    await this.ownership.requireProject(principal, projectId);
    return this.verifier.verify(projectId);
  }
}
