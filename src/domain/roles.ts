// Organization roles: smaller numbers hold more power.
export const ROLE = { owner: 100, administrator: 200, moderator: 300, member: 400, guest: 600 } as const;
export type Role = (typeof ROLE)[keyof typeof ROLE];
export const ROLES: readonly Role[] = [100, 200, 300, 400, 600];
export const ROLE_NAMES: Record<string, Role> = ROLE;

export const isRole = (n: unknown): n is Role => ROLES.includes(n as Role);
export const isAdmin = (role: number) => role <= ROLE.administrator;
export const isOwner = (role: number) => role === ROLE.owner;
export const isModerator = (role: number) => role <= ROLE.moderator;
export const isGuest = (role: number) => role === ROLE.guest;

// The system groups every realm has. Each role's own group holds the users of that role directly, and
// the group of the next role up as a subgroup, so role:moderators contains administrators and owners.
export const SYSTEM_GROUPS = [
  { name: "role:owners", description: "Owners of this organization", roles: [ROLE.owner], sub: null },
  { name: "role:administrators", description: "Administrators of this organization, including owners", roles: [ROLE.administrator], sub: "role:owners" },
  { name: "role:moderators", description: "Moderators of this organization, including administrators", roles: [ROLE.moderator], sub: "role:administrators" },
  {
    name: "role:fullmembers",
    description: "Members of this organization, not including new accounts and guests",
    roles: [ROLE.member],
    sub: "role:moderators",
  },
  { name: "role:members", description: "Members of this organization, not including guests", roles: [ROLE.member], sub: "role:fullmembers" },
  { name: "role:everyone", description: "Everyone in this organization, including guests", roles: [ROLE.guest], sub: "role:members" },
  { name: "role:internet", description: "Everyone on the Internet", roles: [], sub: "role:everyone" },
  { name: "role:nobody", description: "Nobody", roles: [], sub: null },
] as const;
