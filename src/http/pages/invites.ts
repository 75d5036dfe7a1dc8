// The invitation link: a small form to create an account, and the POST that does it. A client that
// asks for JSON (Accept: application/json) gets the API answer instead of a page.
import { acceptInvitation, openInvitation } from "../../actions/invites";
import type { App } from "../../context";
import type { InviteRow, RealmRow } from "../../db/schema";
import { ApiError } from "../../domain/errors";
import { realmUrl } from "../../domain/realms";
import { realmForHost } from "../realm";
import { failure } from "../respond";
import { esc, formValues, page, wantsJson } from "./html";
import { startSession } from "../../actions/sessions";
import { checkOrigin, setSessionCookies, viaHttps } from "../session";
import type { Page } from "./page";

function form(realm: RealmRow, invite: InviteRow, error = "", values: Record<string, string> = {}): Response {
  const email = invite.email
    ? `<p>Email: <strong>${esc(invite.email)}</strong></p>`
    : `<label for="email">Email</label><input id="email" name="email" type="email" required value="${esc(values.email ?? "")}">`;
  return page(
    `Join ${realm.name}`,
    `<h1>Join ${esc(realm.name)}</h1>${error ? `<p class="error">${esc(error)}</p>` : ""}
<form method="post">${email}
<label for="full_name">Full name</label><input id="full_name" name="full_name" required maxlength="100" value="${esc(values.full_name ?? "")}">
<label for="password">Password</label><input id="password" name="password" type="password" required minlength="6">
<button type="submit">Create account</button></form>`,
    error ? 400 : 200,
  );
}

const expired = () => page("Invitation", "<h1>Invitation unavailable</h1><p>The confirmation link has expired or been deactivated.</p>", 404);

const show: Page["handle"] = async (app, request, { key }) => {
  const realm = await realmForHost(app, request.headers.get("host"));
  try {
    return form(realm, await openInvitation(app, realm, key!));
  } catch {
    return expired();
  }
};

const accept: Page["handle"] = async (app: App, request, { key }, ip) => {
  const json = wantsJson(request);
  let realm: RealmRow | undefined;
  let values: Record<string, string> = {};
  try {
    realm = await realmForHost(app, request.headers.get("host"));
    if (!json) checkOrigin(request);
    values = await formValues(app, request);
    const user = await acceptInvitation(app, realm, key!, { email: values.email, full_name: values.full_name ?? "", password: values.password ?? "" });
    await app.writer.settled();
    if (json) return Response.json({ result: "success", msg: "", user_id: user.id, email: user.email, api_key: user.apiKey });
    // A person signing up in a browser goes straight into the web client, signed in.
    const session = await startSession(app, user);
    await app.writer.settled();
    return setSessionCookies(new Response(null, { status: 303, headers: { location: "/" } }), session, viaHttps(app, request, ip()));
  } catch (e) {
    if (json || !realm) return failure(e, (err) => app.log.error("invitation signup failed", { error: String(err) }));
    try {
      return form(realm, await openInvitation(app, realm, key!), e instanceof ApiError ? e.message : "Something went wrong.", values);
    } catch {
      return expired();
    }
  }
};

export default [
  { method: "GET", path: "/join/:key", handle: show },
  { method: "POST", path: "/join/:key", handle: accept },
] satisfies Page[];
