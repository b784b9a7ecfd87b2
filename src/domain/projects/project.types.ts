import type { z } from 'zod';
import type { Project } from '../../db/entities.js';
import type { CreateProjectRules } from './project.rules.js';

export type CreateProjectInput = z.input<typeof CreateProjectRules>;

/** A project as services hand it out (REST and GraphQL present it). */
export interface ProjectView {
  id: number;
  ownerId: string;
  name: string;
  type: string;
  exchangeRate: number;
  supportExchangeRate: boolean;
  metadata: Record<string, unknown>;
  /** The primary asset (own or shared), null until the project has one. */
  assetId: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export function toProjectView(project: Project): ProjectView {
  return {
    id: project.id,
    ownerId: project.ownerId,
    name: project.name,
    type: project.type,
    // numeric arrives as decimal text; the API speaks JSON numbers
    exchangeRate: Number(project.exchangeRate),
    supportExchangeRate: project.supportExchangeRate,
    metadata: project.metadata,
    assetId: project.assetId ?? null,
    createdAt: project.createdAt,
    updatedAt: project.updatedAt,
  };
}
