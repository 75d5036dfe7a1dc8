import { malformedBody, requestTooLarge } from "../domain/errors";

/**
 * Every request parameter by name: the query string, then (for other methods than GET) a form,
 * multipart or JSON body. Body values win over query values of the same name, as in Zulip.
 */
export async function readInput(req: Request, url: URL, maxBytes: number): Promise<Map<string, unknown>> {
  const input = new Map<string, unknown>();
  if (req.method !== "GET" && req.method !== "HEAD" && req.body) {
    const length = Number(req.headers.get("content-length") ?? 0);
    if (length > maxBytes) throw requestTooLarge();
    const type = (req.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
    if (type === "application/json") {
      let body: unknown;
      try {
        const text = await req.text();
        body = text.trim() ? JSON.parse(text) : {};
      } catch {
        throw malformedBody();
      }
      if (typeof body !== "object" || body === null || Array.isArray(body)) throw malformedBody();
      for (const [k, v] of Object.entries(body)) input.set(k, v);
    } else if (type === "multipart/form-data") {
      let form: Awaited<ReturnType<Request["formData"]>>;
      try {
        form = await req.formData();
      } catch {
        throw malformedBody();
      }
      for (const [k, v] of form as unknown as Iterable<[string, unknown]>) if (!input.has(k)) input.set(k, v);
    } else {
      // Zulip clients send form-encoded bodies; treat a body with no type the same way.
      for (const [k, v] of new URLSearchParams(await req.text())) if (!input.has(k)) input.set(k, v);
    }
  }
  if (url.search) for (const [k, v] of url.searchParams) if (!input.has(k)) input.set(k, v);
  return input;
}
