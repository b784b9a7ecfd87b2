import { z } from 'zod';
import { LedgerError } from '../errors.js';
import { MetadataRule } from '../projects/project.rules.js';
import { ProjectIdRule, UuidRule } from '../shared/ids.js';
import { PageRules } from '../shared/paging.js';
import { WalletRefRule } from '../ledger/ledger.rules.js';

/** Wallet groups (CONTRACT §29): the rules shared by the service and the REST schemas. */
export const MAX_GROUPS_PER_PROJECT = 10_000;
/** A root is depth 1; a group's depth is its number of ancestors plus one. */
export const MAX_GROUP_DEPTH = 8;

/** 1 to 100 characters, counted as a reader counts them (code points, as PostgreSQL's char_length). */
export const GroupNameRule = z.string().refine((name) => {
  const length = [...name].length;
  return length >= 1 && length <= 100;
}, 'must be 1 to 100 characters');

export const CreateGroupRules = z.strictObject({
  projectId: ProjectIdRule,
  name: GroupNameRule,
  parentId: UuidRule.nullish(),
  metadata: MetadataRule.nullish(),
});

/** `parentId`: absent keeps the parent, null makes the group a root. */
export const UpdateGroupRules = z.strictObject({
  projectId: ProjectIdRule,
  name: GroupNameRule.optional(),
  parentId: UuidRule.nullable().optional(),
});

export const MembershipRules = z.strictObject({ projectId: ProjectIdRule });
export const MemberRefRule = WalletRefRule;

export const ListGroupsRules = PageRules.extend({ projectId: ProjectIdRule, parentId: UuidRule.nullish() });

export const groupQuotaExceeded = (): LedgerError =>
  new LedgerError('quota_exceeded', `a project has at most ${MAX_GROUPS_PER_PROJECT} wallet groups`, { quota: 'wallet_groups', limit: MAX_GROUPS_PER_PROJECT });
