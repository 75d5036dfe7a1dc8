// Pages reached from mail: "Forgot password?" and the reset link (at Zulip's paths, which the web
// client's sign-in page links to), the new-address confirmation, and unsubscribe links. Pages that
// change something do it on POST, so a mail scanner fetching a link changes nothing. A client that
// asks for JSON (Accept: application/json) gets the API's answer instead of a page.
import { confirmEmailChange, openEmailChange } from "../../actions/email-change";
import { unsubscribe, unsubscribeTarget } from "../../actions/email-unsubscribe";
import { openResetLink, requestPasswordReset, resetPassword } from "../../actions/password-reset";
import type { App } from "../../context";
import type { RealmRow } from "../../db/schema";
import { ApiError, confirmationLinkExpired } from "../../domain/errors";
import { realmUrl } from "../../domain/realms";
import { realmForHost } from "../realm";
import { failure } from "../respond";
import { esc, formValues, page, wantsJson } from "./html";
import type { Page } from "./page";

const RESET = "/accounts/password/reset";
const expired = () => page("Link unavailable", "<h1>Link unavailable</h1><p>The confirmation link has expired or been deactivated.</p>", 404);
const realmOf = async (app: App, request: Request) => await realmForHost(app, request.headers.get("host"));
const signIn = (app: App, realm: RealmRow) => {
  const url = realmUrl(app.config.externalUrl, realm.stringId);
  return `<a href="${esc(url)}">${esc(url)}</a>`;
};
const errorLine = (msg: string) => (msg ? `<p class="error">${esc(msg)}</p>` : "");

// ---- Forgot password ----

function resetRequestForm(app: App, realm: RealmRow, error = "", status = 200): Response {
  if (!app.config.email.enabled)
    return page(
      "Reset your password",
      `<h1>Reset your password</h1><p>This server cannot send email (it is not configured), so passwords cannot be reset by email. Ask an administrator of ${esc(realm.name)} to set a new password for you.</p>`,
      503,
    );
  return page(
    "Reset your password",
    `<h1>Reset your password</h1><p>Enter the email address of your ${esc(realm.name)} account. If it has one, we will send it a link to choose a new password.</p>${errorLine(error)}
<form method="post"><label for="email">Email</label><input id="email" name="email" type="email" required autofocus>
<button type="submit">Send reset link</button></form>`,
    status,
  );
}

const showResetRequest: Page["handle"] = async (app, request) => resetRequestForm(app, await realmOf(app, request));

const postResetRequest: Page["handle"] = async (app, request, _params, ip) => {
  const realm = await realmOf(app, request);
  try {
    const { email = "" } = await formValues(app, request);
    await requestPasswordReset(app, realm, email, ip());
    await app.writer.settled();
    if (wantsJson(request)) return Response.json({ result: "success", msg: "" });
    return page(
      "Check your email",
      `<h1>Check your email</h1><p>If that address has an account in ${esc(realm.name)}, we have sent it a link to reset the password. The link works once, for a limited time. No email? Check your spam folder, or ask an administrator.</p>`,
    );
  } catch (e) {
    if (wantsJson(request) || !(e instanceof ApiError)) return failure(e, (err) => app.log.error("password reset request failed", { error: String(err) }));
    return e.code === "RATE_LIMIT_HIT"
      ? page("Too many requests", "<h1>Too many requests</h1><p>Too many password reset requests came from your network. Try again later.</p>", 429)
      : resetRequestForm(app, realm, e.message, e.status);
  }
};

// ---- The reset link ----

function newPasswordForm(error = "", status = 200): Response {
  return page(
    "Choose a new password",
    `<h1>Choose a new password</h1>${errorLine(error)}
<form method="post"><label for="new_password1">New password</label><input id="new_password1" name="new_password1" type="password" required minlength="6" autofocus>
<label for="new_password2">Confirm new password</label><input id="new_password2" name="new_password2" type="password" required minlength="6">
<button type="submit">Set password</button></form><p>Your other sessions end: apps signed in to this account must sign in again.</p>`,
    status,
  );
}

const showReset: Page["handle"] = async (app, request, { uid, token }) =>
  (await openResetLink(app, await realmOf(app, request), uid!, token!)) ? newPasswordForm() : expired();

const postReset: Page["handle"] = async (app, request, { uid, token }) => {
  const realm = await realmOf(app, request);
  try {
    const v = await formValues(app, request);
    const user = await resetPassword(app, realm, uid!, token!, v.new_password1 ?? "", v.new_password2 ?? "");
    await app.writer.settled();
    if (wantsJson(request)) return Response.json({ result: "success", msg: "" });
    return page("Password changed", `<h1>Password changed</h1><p>The password of ${esc(user.email)} is changed. Sign in at ${signIn(app, realm)} with it.</p>`);
  } catch (e) {
    if (wantsJson(request) || !(e instanceof ApiError)) return failure(e, (err) => app.log.error("password reset failed", { error: String(err) }));
    return (await openResetLink(app, realm, uid!, token!)) ? newPasswordForm(e.message, 400) : expired();
  }
};

// ---- Confirming a new email address ----

const showEmailChange: Page["handle"] = async (app, request, { token }) => {
  const found = await openEmailChange(app, await realmOf(app, request), token!);
  if (!found) return expired();
  return page(
    "Confirm your new email address",
    `<h1>Confirm your new email address</h1><p>Change the email address of your account from ${esc(found.user.email)} to <strong>${esc(found.newEmail)}</strong>?</p>
<form method="post"><button type="submit">Confirm</button></form>`,
  );
};

const postEmailChange: Page["handle"] = async (app, request, { token }) => {
  const realm = await realmOf(app, request);
  try {
    const { newEmail } = await confirmEmailChange(app, realm, token!);
    await app.writer.settled();
    if (wantsJson(request)) return Response.json({ result: "success", msg: "" });
    return page(
      "Email address changed",
      `<h1>Email address changed</h1><p>Your account's email address is now ${esc(newEmail)}; sign in with it from now on.</p>`,
    );
  } catch (e) {
    if (wantsJson(request) || !(e instanceof ApiError)) return failure(e, (err) => app.log.error("email change failed", { error: String(err) }));
    return !(await openEmailChange(app, realm, token!))
      ? expired()
      : page("Email address not changed", `<h1>Email address not changed</h1><p class="error">${esc(e.message)}</p>`, 400);
  }
};

// ---- Unsubscribing ----

const showUnsubscribe: Page["handle"] = async (app, request, { kind, token }) => {
  const t = await unsubscribeTarget(app, await realmOf(app, request), kind!, token!);
  if (!t) return expired();
  return page(
    "Unsubscribe",
    `<h1>Unsubscribe</h1><p>Stop emailing ${esc(t.user.email)} about ${esc(t.what)}? You can turn these emails back on in your notification settings.</p>
<form method="post"><button type="submit">Unsubscribe</button></form>`,
  );
};

const postUnsubscribe: Page["handle"] = async (app, request, { kind, token }) => {
  const realm = await realmOf(app, request);
  const t = await unsubscribeTarget(app, realm, kind!, token!);
  if (!t) return wantsJson(request) ? failure(confirmationLinkExpired(), () => {}) : expired();
  await unsubscribe(app, realm, t.user, t.kind);
  await app.writer.settled();
  if (wantsJson(request)) return Response.json({ result: "success", msg: "" });
  return page("Unsubscribed", `<h1>Unsubscribed</h1><p>${esc(t.user.email)} will no longer be emailed about ${esc(t.what)}.</p>`);
};

export default [
  { method: "GET", path: `${RESET}/`, handle: showResetRequest },
  { method: "POST", path: `${RESET}/`, handle: postResetRequest },
  { method: "GET", path: `${RESET}/:uid/:token/`, handle: showReset },
  { method: "POST", path: `${RESET}/:uid/:token/`, handle: postReset },
  { method: "GET", path: "/accounts/confirm_new_email/:token/", handle: showEmailChange },
  { method: "POST", path: "/accounts/confirm_new_email/:token/", handle: postEmailChange },
  { method: "GET", path: "/accounts/unsubscribe/:kind/:token/", handle: showUnsubscribe },
  { method: "POST", path: "/accounts/unsubscribe/:kind/:token/", handle: postUnsubscribe },
] satisfies Page[];
