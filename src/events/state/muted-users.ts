import { listMutedUsers } from "../../store/muted-users";
import type { StateBuilder } from "./types";

/** `muted_users`: whom the caller has muted, and when. */
export const mutedUsersState: StateBuilder = async ({ app, user }) => ({ muted_users: user ? await listMutedUsers(app.db, user.id) : [] });
