import { useSignal } from "@preact/signals";
import { signIn } from "../api/client";

export function Login({ onSignedIn }: { onSignedIn: () => void }) {
  const email = useSignal("");
  const password = useSignal("");
  const error = useSignal<string | null>(null);
  const busy = useSignal(false);
  async function submit(e: Event) {
    e.preventDefault();
    busy.value = true;
    error.value = null;
    try {
      await signIn(email.value.trim(), password.value);
      password.value = "";
      onSignedIn();
    } catch (err) {
      error.value = (err as Error).message;
    } finally {
      busy.value = false;
    }
  }
  return (
    <main class="login-page">
      <form class="login-card" onSubmit={submit} aria-labelledby="login-title">
        <div class="brand" aria-hidden="true">
          c
        </div>
        <h1 id="login-title">Sign in to confab</h1>
        <label>
          Email
          <input
            data-testid="login-email"
            type="email"
            autoComplete="username"
            required
            autoFocus
            value={email.value}
            onInput={(e) => (email.value = e.currentTarget.value)}
          />
        </label>
        <label>
          Password
          <input
            data-testid="login-password"
            type="password"
            autoComplete="current-password"
            required
            value={password.value}
            onInput={(e) => (password.value = e.currentTarget.value)}
          />
        </label>
        {error.value && (
          <p class="login-error" data-testid="login-error" role="alert">
            {error.value}
          </p>
        )}
        <button class="btn primary wide" data-testid="login-submit" disabled={busy.value}>
          {busy.value ? "Signing in…" : "Sign in"}
        </button>
        <p class="hint">Ask your organization's owner for an invitation link if you have no account yet.</p>
      </form>
    </main>
  );
}
