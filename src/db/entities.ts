import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/**
 * Entities the unit of work manages (create / rename / status changes). Foreign keys are plain
 * scalar ids: reads that cross entities go through batched loaders, not lazy relations.
 * Ledger postings and histories bypass the unit of work (see ledger/posting.repository.ts);
 * owners (plans, keys, call counts) are read and written through raw SQL only.
 */
export const ProjectSchema = defineEntity({
  name: 'Project',
  tableName: 'projects',
  properties: {
    id: p.integer().primary().autoincrement(),
    ownerId: p.text(),
    name: p.text(),
    type: p.text(),
    exchangeRate: p.decimal('string'),
    supportExchangeRate: p.boolean(),
    metadata: p.json<Record<string, unknown>>(),
    assetId: p.uuid().nullable(),
    createdAt: p.datetime(3).onCreate(() => new Date()),
    updatedAt: p.datetime(3).onCreate(() => new Date()).onUpdate(() => new Date()),
  },
});
export type Project = InferEntity<typeof ProjectSchema>;

export const AssetSchema = defineEntity({
  name: 'Asset',
  tableName: 'assets',
  properties: {
    id: p.uuid().primary(),
    seq: p.bigint('string').persist(false).nullable(),
    projectId: p.integer(),
    ownerId: p.text(),
    name: p.text(),
    symbol: p.text(),
    fractions: p.integer(),
    /** Lifetime of the lots its credits to customer wallets create (CONTRACT §15); null: never expires. */
    expiresAfterSeconds: p.integer().nullable(),
    /** It has had an expiry, so wallets may hold lots of it (sticky; the posting function skips the lot rules otherwise). */
    everExpiring: p.boolean().default(false),
    createdAt: p.datetime(3).onCreate(() => new Date()),
    updatedAt: p.datetime(3).onCreate(() => new Date()).onUpdate(() => new Date()),
  },
});
export type Asset = InferEntity<typeof AssetSchema>;

export const WalletSchema = defineEntity({
  name: 'Wallet',
  tableName: 'wallets',
  properties: {
    id: p.uuid().primary(),
    seq: p.bigint('string').persist(false).nullable(),
    projectId: p.integer(),
    ownerId: p.text(),
    address: p.text(),
    type: p.text(),
    status: p.text(),
    /** Its wallet group (CONTRACT §29), changed only by WalletGroupRepository. */
    groupId: p.uuid().nullable().persist(false),
    createdAt: p.datetime(3).onCreate(() => new Date()),
    updatedAt: p.datetime(3).onCreate(() => new Date()).onUpdate(() => new Date()),
  },
});
export type Wallet = InferEntity<typeof WalletSchema>;

export const entities = [ProjectSchema, AssetSchema, WalletSchema];
