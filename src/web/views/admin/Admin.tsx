// Organization settings (its own lazy chunk): a page per part of the administration, each at its own
// hash (#organization/<section>), reached from the user menu. Administrators see every page; others
// only the pages a realm permission delegates to them (access.ts); the server enforces every permission anyway.
import type { FunctionComponent } from "preact";
import { useEffect, useRef } from "preact/hooks";
import { Channels } from "./Channels";
import { Emoji, Linkifiers, ProfileFields } from "./Customization";
import { maySeeSection, SECTION_IDS } from "./access";
import { isAdmin } from "./rules";
import { Groups } from "./Groups";
import { Bots, Invitations, Users } from "./People";
import { RealmPage, UserDefaults } from "./RealmSettings";

export const SECTIONS: [(typeof SECTION_IDS)[number], string, FunctionComponent<{ item?: string }>][] = [
  ["profile", "Organization profile", () => <RealmPage page="profile" />],
  ["permissions", "Permissions and sign-up", () => <RealmPage page="permissions" />],
  ["messages", "Messages", () => <RealmPage page="messages" />],
  ["defaults", "Defaults for new users", UserDefaults],
  ["users", "Users", Users],
  ["bots", "Bots", Bots],
  ["invitations", "Invitations", Invitations],
  ["groups", "User groups", Groups],
  ["channels", "Channels and folders", Channels],
  ["emoji", "Custom emoji", Emoji],
  ["linkifiers", "Linkifiers", Linkifiers],
  ["profile-fields", "Profile fields", ProfileFields],
];

export default function Admin({ section, item }: { section: string; item?: string }) {
  const heading = useRef<HTMLHeadingElement>(null);
  const shown = SECTIONS.filter(([id]) => maySeeSection(id));
  // An unknown section shows the first page to administrators; others get the refusal, which names no page.
  const current = shown.find(([id]) => id === section) ?? (isAdmin() || section === "" ? shown[0] : undefined);
  useEffect(() => heading.current?.focus(), [current?.[0]]);
  if (!current)
    return (
      <div class="admin page" data-testid="admin-refused">
        <p class="empty-note">Only the organization's administrators, and those they allow, can use this page.</p>
      </div>
    );
  const Body = current[2];
  return (
    <div class="admin page" data-testid="admin">
      <nav class="admin-nav" aria-label="Organization settings">
        <h2 class="admin-title">Organization settings</h2>
        <ul>
          {shown.map(([id, label]) => (
            <li key={id}>
              <a
                href={`#organization/${id}`}
                data-testid={`admin-nav-${id}`}
                class={id === current[0] ? "active" : undefined}
                aria-current={id === current[0] ? "page" : undefined}
              >
                {label}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <div class="admin-body" key={current[0]}>
        <h2 class="sr-only" tabIndex={-1} ref={heading}>
          {current[1]}
        </h2>
        <Body item={item} />
      </div>
    </div>
  );
}
