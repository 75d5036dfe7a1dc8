import { and, asc, eq, gt, isNull, or } from "drizzle-orm";
import type { Db } from "../db/client";
import { invites, type InviteRow } from "../db/schema";

export const insertInvite = async (db: Db, i: typeof invites.$inferInsert): Promise<InviteRow> => db.insert(invites).values(i).returning().get();

export const findInvite = async (db: Db, realmId: number, id: number, multiuse: boolean): Promise<InviteRow | undefined> =>
  db
    .select()
    .from(invites)
    .where(and(eq(invites.id, id), eq(invites.realmId, realmId), eq(invites.isMultiuse, multiuse)))
    .get();

export const findInviteByKey = async (db: Db, key: string): Promise<InviteRow | undefined> => db.select().from(invites).where(eq(invites.key, key)).get();

/** Invitations still usable at `now`: active and not expired; one referrer's, or the whole realm's. */
export const listOpenInvites = async (db: Db, realmId: number, now: number, referrerId?: number): Promise<InviteRow[]> =>
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
    .orderBy(asc(invites.id))
    .all();

export const setInviteStatus = async (db: Db, id: number, status: "active" | "used" | "revoked") =>
  db.update(invites).set({ status }).where(eq(invites.id, id)).run();

export const touchInvite = async (db: Db, id: number, dateCreated: number) => db.update(invites).set({ dateCreated }).where(eq(invites.id, id)).run();
