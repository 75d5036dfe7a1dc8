// Entry: signed in (the session cookie) → register and show the app; otherwise the sign-in page.
import { signal } from "@preact/signals";
import { render } from "preact";
import { ApiError, csrfToken, setUnauthorizedHandler } from "./api/client";
import { startQueue, onResync } from "./store/queue";
import { startPresence, stopPresence } from "./store/presence";
import { openList } from "./views/MessageView";
import { prefetchFirstList, resyncLists } from "./store/lists";
import { view } from "./store/router";
import { settings } from "./store/state";
import { App } from "./views/App";
import { Login } from "./views/Login";

const phase = signal<"loading" | "signed-out" | "ready" | { error: string }>("loading");

async function boot() {
  // No CSRF cookie: no session either (they are set and cleared together).
  if (!csrfToken()) return void (phase.value = "signed-out");
  phase.value = "loading";
  prefetchFirstList(view.value);
  try {
    await startQueue();
    startPresence();
    phase.value = "ready";
  } catch (e) {
    phase.value = e instanceof ApiError && (e.status === 401 || e.code === "CSRF_FAILED") ? "signed-out" : { error: (e as Error).message };
  }
}

// Signed out (here or elsewhere, or the session expired): start again from a clean page, so nothing
// of this person's data stays in memory for whoever signs in next.
const restart = () => {
  stopPresence();
  location.reload();
};
setUnauthorizedHandler(() => {
  if (phase.value === "ready") restart();
});
onResync(() => resyncLists(openList));

// Theme: the user's color_scheme (1 automatic, 2 dark, 3 light); automatic follows the system.
settings.subscribe((s) => {
  const scheme = s.color_scheme;
  document.documentElement.dataset.theme = scheme === 2 ? "dark" : scheme === 3 ? "light" : "auto";
});

function Root() {
  const p = phase.value;
  if (p === "loading")
    return (
      <div class="splash" role="status">
        Loading…
      </div>
    );
  if (p === "signed-out") return <Login onSignedIn={boot} />;
  if (typeof p === "object")
    return (
      <div class="splash" role="alert">
        <p>Cannot load confab: {p.error}</p>
        <button class="btn" onClick={boot}>
          Try again
        </button>
      </div>
    );
  return <App onSignedOut={restart} />;
}

render(<Root />, document.getElementById("app")!);
void boot();
