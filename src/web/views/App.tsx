// The signed-in app: header (search, connection state, user menu), sidebar, the open view, compose.
import { effect, signal, untracked, useSignal } from "@preact/signals";
import { lazy, Suspense } from "preact/compat";
import { useEffect } from "preact/hooks";
import { api, signOut } from "../api/client";
import { Avatar } from "../ui/Avatar";
import { Icon } from "../ui/icons";
import { Modal } from "../ui/Modal";
import { say, sayError, toast } from "../ui/toast";
import { drawerOpen, go, view } from "../store/router";
import { connection, me, realm, unreadCounts } from "../store/state";
import { can } from "../store/permissions";
import { stopQueue } from "../store/queue";
import { ChannelBrowser } from "./ChannelBrowser";
import { Compose, composeOpen, followNarrow } from "./Compose";
import { Drafts } from "./Drafts";
import { Inbox } from "./Inbox";
import { MessageDialogs } from "./MessageDialogs";
import { MessageView } from "./MessageView";
import { Recent } from "./Recent";
import { SearchBox } from "./Search";
import { Sidebar } from "./Sidebar";
import { helpOpen, ShortcutHelp, useShortcuts } from "./shortcuts";
import { askNotificationPermission, useNotifications } from "./notifications";
import { isHumanMember } from "./ext/access";
import { firstSection, SECTION_IDS } from "./admin/access";
import { ProfileCard, profileCard } from "./ProfileCard";

const Settings = lazy(() => import("./Settings"));
const ExtPages = lazy(() => import("./ext/ExtPages"));
const Admin = lazy(() => import("./admin/Admin"));
export const settingsOpen = signal(false);
const inviteLink = signal<string | null>(null);

async function invite() {
  try {
    const r = await api.post("invites/multiuse", { invite_expires_in_minutes: 7 * 24 * 60 });
    inviteLink.value = r.invite_link;
  } catch (e) {
    sayError(e);
  }
}

function UserMenu({ onSignOut }: { onSignOut: () => void }) {
  const open = useSignal(false);
  const organizationEntry = firstSection(SECTION_IDS);
  const item = (label: string, f: () => void, testid?: string) => (
    <li role="none">
      <button role="menuitem" data-testid={testid} onClick={() => ((open.value = false), f())}>
        {label}
      </button>
    </li>
  );
  return (
    // Escape closes it wherever the focus is within: on the toggle as well as in the list.
    <div class="menu-wrap" onKeyDown={(e) => e.key === "Escape" && open.value && ((open.value = false), e.stopPropagation())}>
      <button
        class="user-button"
        data-testid="user-menu"
        aria-haspopup="menu"
        aria-expanded={open.value}
        aria-label="Menu"
        onClick={() => (open.value = !open.value)}
      >
        <Avatar id={me.value.user_id} size={28} />
        <span class="user-name">{me.value.full_name}</span>
      </button>
      {open.value && (
        <ul class="menu right" role="menu">
          {item("Your profile and status", () => (profileCard.value = me.value.user_id), "open-own-profile")}
          {item("Personal settings", () => (settingsOpen.value = true), "open-settings")}
          {can("create_multiuse_invite_group") && item("Invite users", invite, "invite-users")}
          {isHumanMember() && item("Plugins, secrets and agent", () => go("#ext/plugins"), "open-ext")}
          {organizationEntry && item("Organization settings", () => go(`#organization/${organizationEntry}`), "open-organization")}
          {item("Keyboard shortcuts", () => (helpOpen.value = true))}
          {item("Sign out", onSignOut, "sign-out")}
        </ul>
      )}
    </div>
  );
}

/** Desktop notifications need the browser's permission, which only a click may ask for. */
const bannerDismissed = signal(localStorage.getItem("confab.notifications-banner") === "dismissed");
function NotificationBanner() {
  const asked = useSignal(false);
  if (bannerDismissed.value || asked.value || typeof Notification === "undefined" || Notification.permission !== "default") return null;
  const dismiss = () => {
    localStorage.setItem("confab.notifications-banner", "dismissed");
    bannerDismissed.value = true;
  };
  return (
    <div class="banner" role="region" aria-label="Notifications">
      <span class="grow">Get a desktop notification for direct messages and mentions while this tab is in the background?</span>
      <button class="btn small primary" onClick={() => ((asked.value = true), askNotificationPermission())}>
        Enable notifications
      </button>
      <button class="icon-btn" aria-label="Not now" onClick={dismiss}>
        ×
      </button>
    </div>
  );
}

function Main() {
  const v = view.value;
  if (v.kind === "inbox") return <Inbox />;
  if (v.kind === "recent") return <Recent />;
  if (v.kind === "drafts") return <Drafts />;
  if (v.kind === "channels") return <Inbox />;
  if (v.kind === "ext")
    return (
      <Suspense fallback={<div class="page" aria-busy="true" />}>
        <ExtPages path={v.path} />
      </Suspense>
    );
  if (v.kind === "organization")
    return (
      <Suspense fallback={<p class="empty-note">Loading…</p>}>
        <Admin section={v.section} item={v.item} />
      </Suspense>
    );
  return <MessageView key={JSON.stringify(v)} terms={v.terms} near={v.near} />;
}

// The compose box follows the narrow the moment it changes, not after the next paint (by then a fast
// typist, or a test, may already be typing a topic for it).
effect(() => {
  const v = view.value;
  if (v.kind === "messages") untracked(() => followNarrow(v.terms));
});

export function App({ onSignedOut }: { onSignedOut: () => void }) {
  const v = view.value;
  useShortcuts();
  useNotifications();
  const total = unreadCounts.value.total;
  useEffect(() => {
    document.title = `${total ? `(${total}) ` : ""}${realm.value.realm_name ?? "confab"}`;
  }, [total, realm.value.realm_name]);
  async function doSignOut() {
    stopQueue();
    try {
      await signOut();
    } catch {}
    onSignedOut();
  }
  const showCompose = v.kind === "messages" || composeOpen.value;
  return (
    <div class="app">
      <a class="skip-link" href="#main">
        Skip to messages
      </a>
      <header class="topbar">
        <button
          class="icon-btn drawer-toggle"
          aria-label="Show channels"
          aria-expanded={drawerOpen.value}
          onClick={() => (drawerOpen.value = !drawerOpen.value)}
        >
          <Icon name="menu" size={20} />
        </button>
        <a class="realm-link" href="#inbox">
          {realm.value.realm_icon_url && <img class="realm-icon" src={realm.value.realm_icon_url} alt="" width={24} height={24} data-testid="realm-icon" />}
          <span class="realm-name">{realm.value.realm_name ?? "confab"}</span>
        </a>
        <SearchBox />
        {connection.value === "reconnecting" && (
          <span class="reconnecting" data-testid="reconnecting" role="status">
            Reconnecting…
          </span>
        )}
        <UserMenu onSignOut={doSignOut} />
      </header>
      <div class="layout">
        <Sidebar />
        {drawerOpen.value && <div class="drawer-backdrop" onClick={() => (drawerOpen.value = false)} />}
        <main id="main" class="main" tabIndex={-1}>
          <NotificationBanner />
          <Main />
          {showCompose && <Compose />}
        </main>
      </div>
      <ChannelBrowser />
      <MessageDialogs />
      {profileCard.value !== null && <ProfileCard userId={profileCard.value} />}
      {helpOpen.value && <ShortcutHelp onClose={() => (helpOpen.value = false)} />}
      {settingsOpen.value && (
        <Suspense fallback={<div class="backdrop" />}>
          <Settings onClose={() => (settingsOpen.value = false)} />
        </Suspense>
      )}
      {inviteLink.value && (
        <Modal title="Invite users" onClose={() => (inviteLink.value = null)}>
          <p>Send this link to the people you want to invite. It works for a week.</p>
          <div class="row">
            <input class="grow" readOnly value={inviteLink.value} data-testid="invite-link" onFocus={(e) => e.currentTarget.select()} />
            <button class="btn primary" onClick={() => navigator.clipboard?.writeText(inviteLink.value!).then(() => say("Link copied"))}>
              Copy
            </button>
          </div>
        </Modal>
      )}
      {toast.value && (
        <div class={`toast${toast.value.error ? " error" : ""}`} role={toast.value.error ? "alert" : "status"}>
          {toast.value.text}
        </div>
      )}
    </div>
  );
}

export const goHome = () => go("#inbox");
