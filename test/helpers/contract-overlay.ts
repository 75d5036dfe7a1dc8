// Where the contract and Zulip's file disagree the contract wins: these are the fields the contract
// adds to Zulip's responses (its service_* names beside Zulip's zulip_* names). The validator merges
// them into the operation's schema before compiling, so a body with them still passes and a body with
// them misspelled or mistyped still fails.
type Schema = Record<string, any>;

const versionFields: Record<string, Schema> = {
  service_feature_level: { type: "integer" },
  service_version: { type: "string" },
  service_merge_base: { type: "string" },
};

/** Keyed "method /template status". */
export const RESPONSE_ADDITIONS: Record<string, Record<string, Schema>> = {
  "get /server_settings 200": versionFields,
  "post /register 200": { ...versionFields, idle_queue_timeout_secs: { type: "integer" } },
};
