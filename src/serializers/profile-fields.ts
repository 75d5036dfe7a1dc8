// Users' profile_data as the API shows it (users, register's realm_users).
import type { Db } from "../db/client";
import type { UserRow } from "../db/schema";
import * as store from "../store/profile-fields";

const shape = (values: Map<number, string> | undefined) => Object.fromEntries([...(values ?? [])].map(([id, value]) => [String(id), { value }]));

/** A user's profile_data. */
export const profileDataOfUser = async (db: Db, user: UserRow) => shape(await store.listUserFieldValues(db, user.id));

/** Every user's profile_data in a realm, from one query. */
export async function realmProfileData(db: Db, realmId: number): Promise<(userId: number) => Record<string, unknown>> {
  const all = await store.listRealmFieldValues(db, realmId);
  return (userId) => shape(all.get(userId));
}
