import type { Database, Statement } from "better-sqlite3";

/**
 * Prepared statements by their SQL, for statements written per query (a filter's shape is part of
 * their SQL, its values bound). Filters come from requests: past `size` statements the cache is
 * emptied rather than keep every shape ever asked.
 */
export function createStatementCache(client: Database, size = 200): (sql: string) => Statement {
  const statements = new Map<string, Statement>();
  return (sql) => {
    let statement = statements.get(sql);
    if (!statement) {
      if (statements.size >= size) statements.clear();
      statement = client.prepare(sql);
      statements.set(sql, statement);
    }
    return statement;
  };
}
