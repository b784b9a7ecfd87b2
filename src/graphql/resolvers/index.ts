import type { NonEmptyArray } from 'type-graphql';
import { PlanResolver } from './plan.resolver.js';

export const resolvers: NonEmptyArray<Function> = [PlanResolver];
