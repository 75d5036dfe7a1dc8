// Finding a request's endpoint in the route table. Elysia routes each door (/api/v1, /json) and method to
// one handler; the table itself is looked up here, by the path's first segment, which leaves a handful
// of templates to try. Registering every template with Elysia instead cost start-up ~20 ms (its router,
// and handlers composed at listen and on first use), for nothing a small index cannot do.

/** What the index needs of a table entry: its method and its path template (`/users/{user_id}`). */
export interface Routed {
  ep: { method: string; path: string };
}

const firstSegment = (path: string) => {
  const end = path.indexOf("/", 1);
  return end < 0 ? path.slice(1) : path.slice(1, end);
};

const isParam = (segment: string) => segment.startsWith("{");

/**
 * Which of two templates to try first: at the first segment where one has a literal and the other a
 * parameter, the literal (`/users/me` before `/users/{user_id}`); otherwise their order in the table,
 * so that templates of one shape (`/users/{user_id}`, `/users/{email}`) keep theirs.
 */
function moreSpecificFirst(a: Routed, b: Routed): number {
  const sa = a.ep.path.split("/");
  const sb = b.ep.path.split("/");
  for (let i = 0; i < Math.min(sa.length, sb.length); i++) {
    const pa = isParam(sa[i]!);
    if (pa !== isParam(sb[i]!)) return pa ? 1 : -1;
  }
  return 0;
}

export interface RouteIndex<C extends Routed> {
  /** The methods the table answers (HEAD is answered as GET). */
  methods: string[];
  /** The entries whose template may match `path` (the part after the door), most specific first. */
  candidates(method: string, path: string): readonly C[];
}

export function routeIndex<C extends Routed>(table: readonly C[]): RouteIndex<C> {
  const buckets = new Map<string, C[]>();
  for (const c of table) {
    if (isParam(firstSegment(c.ep.path))) throw new Error(`${c.ep.path}: a template starts with a literal segment (the index's key)`);
    const key = `${c.ep.method} ${firstSegment(c.ep.path)}`;
    buckets.set(key, [...(buckets.get(key) ?? []), c]);
  }
  // Array.prototype.sort is stable: equally specific templates keep the table's order.
  for (const list of buckets.values()) list.sort(moreSpecificFirst);
  const none: readonly C[] = [];
  return {
    methods: [...new Set(table.map((c) => c.ep.method))],
    candidates: (method, path) => buckets.get(`${method === "HEAD" ? "GET" : method} ${firstSegment(path)}`) ?? none,
  };
}
