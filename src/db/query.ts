// Running a drizzle query on either engine (db/engine.ts). The store builds queries with drizzle's
// builders, typed as SQLite's; these run them. On SQLite each is exactly the builder's synchronous
// call it replaces (no promise made: the store awaits a plain value); on PostgreSQL the builder is a
// promise of its rows.
/** What a neutral call gives: the value itself on SQLite, its promise on PostgreSQL. */
export type Awaitable<T> = T | Promise<T>;

/** A SQLite builder (get/all/run); on PostgreSQL, the same query as drizzle's thenable builder. */
interface Runnable<G, A> {
  get(): G;
  all(): A;
  run(): unknown;
}

const onSqlite = (q: object): boolean => typeof (q as { get?: unknown }).get === "function";

/** The first row, or undefined (`.get()`). PostgreSQL is asked for one row only, where the query can say so. */
export function first<G>(q: Pick<Runnable<G, unknown>, "get">): Awaitable<G> {
  if (onSqlite(q)) return q.get();
  const limit = (q as { limit?: (n: number) => unknown }).limit;
  const one = typeof limit === "function" ? limit.call(q, 1) : q;
  return (one as Promise<G[]>).then((rows) => rows[0]);
}

/** Every row (`.all()`). */
export function all<A>(q: Pick<Runnable<unknown, A>, "all">): Awaitable<A> {
  if (onSqlite(q)) return q.all();
  return q as unknown as Promise<A>;
}

/** Runs a statement for its effect (`.run()`); `changes` is the number of rows it changed. */
export function run(q: Pick<Runnable<unknown, unknown>, "run">): Awaitable<{ changes: number }> {
  if (onSqlite(q)) return q.run() as { changes: number };
  return (q as unknown as Promise<{ count?: number; length: number }>).then((r) => ({ changes: r.count ?? r.length }));
}
