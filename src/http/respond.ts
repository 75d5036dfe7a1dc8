import { isNulRefused, isStorageFull } from "../db/client";
import { ApiError, nullBytesRefused, storageFull } from "../domain/errors";

const JSON_HEADERS = { "content-type": "application/json" };

/**
 * A frozen result is one an action keeps and hands out again (GET /users/me's object while its user's
 * lookups stand): its body is written once and then reused.
 */
const frozenBodies = new WeakMap<object, string>();

export function success(fields: object, ignored: string[]): Response {
  if (ignored.length)
    return new Response(JSON.stringify({ result: "success", msg: "", ...fields, ignored_parameters_unsupported: ignored }), { headers: JSON_HEADERS });
  const frozen = Object.isFrozen(fields);
  let body = frozen ? frozenBodies.get(fields) : undefined;
  if (body === undefined) {
    body = JSON.stringify({ result: "success", msg: "", ...fields });
    if (frozen) frozenBodies.set(fields, body);
  }
  return new Response(body, { headers: JSON_HEADERS });
}

/** The one place errors become responses: `{result: "error", msg, code, ...extra}` with status and headers. */
export function failure(e: unknown, onUnexpected: (e: unknown) => void): Response {
  if (isStorageFull(e)) e = storageFull();
  else if (isNulRefused(e)) e = nullBytesRefused();
  if (e instanceof ApiError)
    return new Response(JSON.stringify({ result: "error", msg: e.message, code: e.code, ...e.extra }), {
      status: e.status,
      headers: { ...JSON_HEADERS, ...e.headers },
    });
  onUnexpected(e);
  return new Response(JSON.stringify({ result: "error", msg: "Internal server error", code: "INTERNAL_SERVER_ERROR" }), {
    status: 500,
    headers: JSON_HEADERS,
  });
}
