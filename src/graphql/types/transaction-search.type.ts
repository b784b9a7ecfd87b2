import { Field, ObjectType } from 'type-graphql';
import type { TransactionModel } from '../presenters.js';
import { edgeType, PageInfo, type Edge } from './connection.js';
import { TransactionType } from './transaction.type.js';

/**
 * Project.transactions (CONTRACT §21): a Relay connection over the same edges as the other
 * transaction lists, without `totalCount` (counting every match of a search would read them all).
 */
@ObjectType('TransactionSearchConnection', { simpleResolvers: true, description: "A page of a project's transactions matching a filter, newest first (ties by commit order)." })
export class TransactionSearchConnection {
  @Field(() => [edgeType('Transaction', TransactionType)], { description: "The page's transactions, each with its cursor, newest first." })
  edges!: Edge<TransactionModel>[];
  @Field(() => PageInfo, { description: 'Whether more matches follow; `endCursor` is the `after` of the next page. Pages have no gaps or repeats while postings go on (newer postings are not added to a search already paging).' })
  pageInfo!: PageInfo;
}
