import { toApiRealmDomain } from "../../domain/realm-domains";
import { listRealmDomains } from "../../store/realm-domains";
import type { StateBuilder } from "./types";

/** `realm_domains`: the organization's allowed email domains. */
export const realmDomainsState: StateBuilder = async ({ app, realm }) => ({ realm_domains: (await listRealmDomains(app.db, realm.id)).map(toApiRealmDomain) });
