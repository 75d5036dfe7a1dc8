// Running a drizzle query on either engine (db/engine.ts). The store builds queries with drizzle's
// builders, typed as SQLite's; these run them. On SQLite each is exactly the builder's synchronous
// call it replaces (no promise made: the store awaits a plain value); on PostgreSQL the builder is a
// promise of its rows.
type Awaitable<T> = T | Promise<T>;

/** A SQLite builder (get/all/run); on PostgreSQL, the same query as drizzle's thenable builder. */
interface Runnable<G, A> {
  get(): G;
  all(): A;
  run(): unknown;
}

const onSqlite = (q: object): boolean => typeof (q as { get?: unknown }).get === "function";

/** The first row, or undefined (`.get()`). */
export function first<G>(q: Pick<Runnable<G, unknown>, "get">): Awaitable<G> {
  if (onSqlite(q)) return q.get();
  return (q as unknown as Promise<G[]>).then((rows) => rows[0]);
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
