import { useState } from "preact/hooks";
import { presenceOf, users } from "../store/state";

const HUES = [210, 340, 160, 30, 270, 190, 0, 100];

/** The user's avatar, or their initials when it is a remote (gravatar) picture or fails to load: nothing loads from elsewhere. */
export function Avatar({ id, url, size = 36, name }: { id: number; url?: string | null; size?: number; name?: string }) {
  const u = users.value.get(id);
  const src = url ?? u?.avatar_url;
  const [broken, setBroken] = useState(false);
  if (!src || broken || !(src.startsWith("/") || src.startsWith(`${location.origin}/`))) {
    const initials = (u?.full_name ?? name ?? "?")
      .split(/\s+/)
      .map((w) => w[0])
      .join("")
      .slice(0, 2)
      .toUpperCase();
    return (
      <span
        class="avatar avatar-initials"
        aria-hidden="true"
        style={{ width: size, height: size, fontSize: size * 0.4, background: `hsl(${HUES[id % HUES.length]} 45% 45%)` }}
      >
        {initials}
      </span>
    );
  }
  return <img class="avatar" src={src} alt="" width={size} height={size} loading="lazy" onError={() => setBroken(true)} />;
}

export function PresenceDot({ id }: { id: number }) {
  const p = presenceOf(id);
  const label = p === "active" ? "Active" : p === "idle" ? "Idle" : "Offline";
  return <span class={`presence presence-${p}`} role="img" aria-label={label} title={label} />;
}
