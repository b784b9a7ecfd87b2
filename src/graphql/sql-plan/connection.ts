import { getNamedType, GraphQLObjectType, type FieldNode } from 'graphql';
import { unplannable, type Fields, type PlanContext } from './plan-context.js';
import { jsonArraySql, jsonValueSql, literalSql, seqCursorSql } from './sql.js';

export interface ConnectionPage {
  /** A subquery of at most `first + 1` rows, numbered `n` from 1 in page order, with a `seq` column. */
  rows: string;
  /** Its alias, which `node` and `joins` refer to. */
  row: string;
  joins?: string;
  first: number;
  hasPreviousPage: boolean;
  newestFirst: boolean;
  node(fields: Fields): string;
  totalCount: string;
}

/**
 * A Relay connection over `rows` (`first + 1` rows numbered `n` in page order, the extra one
 * telling a next page): edges, pageInfo and totalCount as toConnection/toPage print them.
 */
export function connectionSql(ctx: PlanContext, type: GraphQLObjectType, nodes: readonly FieldNode[], page: ConnectionPage): string {
  const { first, row } = page;
  const inPage = `FILTER (WHERE ${row}.n <= ${first})`;
  const [startSeq, endSeq] = page.newestFirst ? [`max(${row}.seq) ${inPage}`, `min(${row}.seq) ${inPage}`] : [`min(${row}.seq) ${inPage}`, `max(${row}.seq) ${inPage}`];
  const json = ctx.object(type, ctx.collect(type, nodes), (name, fieldNodes) => {
    switch (name) {
      case 'edges': {
        const edgeType = getNamedType(type.getFields().edges.type) as GraphQLObjectType;
        const edge = ctx.object(edgeType, ctx.collect(edgeType, fieldNodes), (edgeField, edgeNodes) => {
          if (edgeField === 'cursor') return jsonValueSql(seqCursorSql(`${row}.seq`));
          if (edgeField === 'node') return page.node(ctx.collect(getNamedType(edgeType.getFields().node.type) as GraphQLObjectType, edgeNodes));
          return unplannable();
        });
        return jsonArraySql(edge, `${row}.n`, inPage);
      }
      case 'pageInfo': {
        const info = getNamedType(type.getFields().pageInfo.type) as GraphQLObjectType;
        return ctx.object(info, ctx.collect(info, fieldNodes), (infoField) => {
          switch (infoField) {
            case 'hasNextPage':
              return jsonValueSql(`count(*) > ${first}`);
            case 'hasPreviousPage':
              return literalSql(String(page.hasPreviousPage));
            case 'startCursor':
              return jsonValueSql(seqCursorSql(startSeq));
            case 'endCursor':
              return jsonValueSql(seqCursorSql(endSeq));
            default:
              return unplannable();
          }
        });
      }
      case 'totalCount':
        return jsonValueSql(page.totalCount);
      default:
        return unplannable();
    }
  });
  // GROUP BY (): one row, even when no aggregate is selected (only totalCount, say) or no row matches
  return `(SELECT ${json} FROM (${page.rows}) ${row} ${page.joins ?? ''} GROUP BY ())`;
}

