import { isStorageFull } from "../db/client";
import { ApiError, storageFull } from "../domain/errors";

const JSON_HEADERS = { "content-type": "application/json" };

export const success = (fields: object, ignored: string[]) =>
  new Response(
    JSON.stringify(
      ignored.length ? { result: "success", msg: "", ...fields, ignored_parameters_unsupported: ignored } : { result: "success", msg: "", ...fields },
    ),
    { headers: JSON_HEADERS },
  );

/** The one place errors become responses: `{result: "error", msg, code, ...extra}` with status and headers. */
export function failure(e: unknown, onUnexpected: (e: unknown) => void): Response {
  if (isStorageFull(e)) e = storageFull();
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
