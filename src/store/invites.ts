import { and, asc, eq, gt, isNull, or } from "drizzle-orm";
import type { Db } from "../db/client";
import { type invites, type InviteRow } from "../db/schema";
import { tables } from "../db/engine";
import { first, all, run } from "../db/query";

export const insertInvite = async (db: Db, i: typeof invites.$inferInsert): Promise<InviteRow> => {
  const { invites } = tables(db);
  return first(db.insert(invites).values(i).returning());
};

export const findInvite = async (db: Db, realmId: number, id: number, multiuse: boolean): Promise<InviteRow | undefined> => {
  const { invites } = tables(db);
  return first(
    db
      .select()
      .from(invites)
      .where(and(eq(invites.id, id), eq(invites.realmId, realmId), eq(invites.isMultiuse, multiuse))),
  );
};

export const findInviteByKey = async (db: Db, key: string): Promise<InviteRow | undefined> => {
  const { invites } = tables(db);
  return first(db.select().from(invites).where(eq(invites.key, key)));
};

/** Invitations still usable at `now`: active and not expired; one referrer's, or the whole realm's. */
export const listOpenInvites = async (db: Db, realmId: number, now: number, referrerId?: number): Promise<InviteRow[]> => {
  const { invites } = tables(db);
  return all(
    db
      .select()
      .from(invites)
      .where(
        and(
          eq(invites.realmId, realmId),
          eq(invites.status, "active"),
          or(isNull(invites.expiresAt), gt(invites.expiresAt, now)),
          referrerId === undefined ? undefined : eq(invites.referredBy, referrerId),
        ),
      )
      .orderBy(asc(invites.id)),
  );
};

export const setInviteStatus = async (db: Db, id: number, status: "active" | "used" | "revoked") => {
  const { invites } = tables(db);
  return run(db.update(invites).set({ status }).where(eq(invites.id, id)));
};

export const touchInvite = async (db: Db, id: number, dateCreated: number) => {
  const { invites } = tables(db);
  return run(db.update(invites).set({ dateCreated }).where(eq(invites.id, id)));
};
