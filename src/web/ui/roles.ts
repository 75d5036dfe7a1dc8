// The organization roles by their wire values, named as the app shows them.
export const ROLES: [number, string][] = [
  [100, "Owner"],
  [200, "Administrator"],
  [300, "Moderator"],
  [400, "Member"],
  [600, "Guest"],
];

export const roleName = (r: number) => ROLES.find(([v]) => v === r)?.[1] ?? String(r);
