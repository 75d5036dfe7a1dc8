// The reference files the tests read: repository copies (test/fixtures/reference/), so a lone clone runs
// the suite; each names the file in the team's shared folder it was copied from.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const here = (rel: string) => fileURLToPath(new URL(rel, import.meta.url));

export interface ReferenceCopy {
  copy: string;
  source: string;
}

export const ZULIP_OPENAPI: ReferenceCopy = {
  copy: here("../fixtures/reference/zulip-openapi.yaml"),
  source: here("../../../shared/reference/zulip-openapi.yaml"),
};

export const CONTRACT: ReferenceCopy = {
  copy: here("../fixtures/reference/team-chat-api.md"),
  source: here("../../../shared/spec/team-chat-api.md"),
};

export const REFERENCE_COPIES = [ZULIP_OPENAPI, CONTRACT];

/** The shared folder beside the clone, when there is one. */
export const sharedPresent = () => REFERENCE_COPIES.some((r) => existsSync(r.source));
