import { Arg, Ctx, Field, ID, Mutation, ObjectType, Resolver } from 'type-graphql';
import type { CreditLineView } from '../../domain/credit-lines/credit-line.types.js';
import { minorToDecimalString } from '../../domain/money.js';
import type { GraphQLContext } from '../context.js';
import { projectIdOf } from '../ids.js';
import { idempotent } from '../idempotency.js';
import { DecimalScalar } from '../scalars.js';

@ObjectType('CreditLine', { simpleResolvers: true, description: "A wallet's credit line in one currency: how far below zero it may go." })
class CreditLineType {
  @Field(() => ID, { description: "The wallet's id." }) walletId!: string;
  @Field({ description: "The asset's symbol." }) currency!: string;
  @Field(() => DecimalScalar, { description: 'Major units; 0: no line.' }) limit!: string;
}

const creditLineModel = (line: CreditLineView): CreditLineType => ({ walletId: line.walletId, currency: line.currency, limit: minorToDecimalString(line.limit, line.fractions) });

/** Credit lines (as PUT /wallets/{id}/credit-line): the rules are CreditLineService's. */
@Resolver()
export class CreditLineResolver {
  @Mutation(() => CreditLineType, {
    description:
      'Sets (0: removes) the wallet’s credit line in one currency: it may then go down to −limit (`Balance.available` = balance − held + creditLimit). Lowering it below what is used is allowed: the wallet then only receives until available > 0. Any wallet type. Errors: `validation_error` (a field; an asset whose points expire), `not_found` (the wallet in that project, the currency), `conflict` (a closed wallet).',
  })
  setCreditLine(
    @Arg('walletId', () => ID, { description: 'The wallet (its id).' }) walletId: string,
    @Arg('projectId', () => ID, { description: "The wallet's project (else `not_found`)." }) projectId: string,
    @Arg('currency', { description: 'An asset symbol of the project.' }) currency: string,
    @Arg('limit', () => DecimalScalar, { description: 'Major units, ≥ 0, with at most the asset’s decimals.' }) limit: string | number,
    @Ctx() ctx: GraphQLContext,
  ): Promise<CreditLineType> {
    // through idempotent() like every mutation, though it takes no key (setting a line twice is the same line)
    return idempotent(ctx, 'setCreditLine', null, { walletId, projectId, currency, limit }, async () =>
      creditLineModel(await ctx.services.creditLines.set(ctx.principal, walletId, { projectId: projectIdOf(projectId), currency, limit })),
    );
  }
}
