/**
 * Tenancy (CONTRACT §18) in SQL, written once: row `row` (the alias of a projects or wallets
 * row, or of any table with an `owner_id`) belongs to `owner` (an SQL expression: a parameter,
 * a column). Every statement that reads the caller's own rows states it with this fragment — the
 * repositories and the SQL plans of GraphQL reads (src/graphql/sql-plan) alike.
 */
export const ownedBy = (row: string, owner: string): string => `${row}.owner_id = ${owner}`;
