// Types of search-seed.js for the TypeScript benches (bench/graphql/cost-weights.bench.ts).
import type pg from 'pg';

export const WALLETS: number;
export const BASE: Date;
export function dateOf(g: number): Date;
export function referenceOf(g: number): string;
export interface SeededProject {
  apiKey: string;
  owner: string;
  projectId: number;
  assetId: string;
  wallets: { id: string; address: string }[];
}
export function createProject(pool: pg.Pool, owner?: string): Promise<SeededProject>;
export function addTransactions(pool: pg.Pool, project: SeededProject, from: number, to: number): Promise<void>;
