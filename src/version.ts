import pkg from "../package.json";

/**
 * The highest feature level whose changes confab implements (the contract's Versioning table); raise it
 * only when every change up to it works. 496: every row of that table, up to bots calling the group
 * endpoints (string anchors, retention, edit-history names, invitations in minutes, message_ids,
 * empty topics, topics policy, channel creation, date anchors, idle_queue_timeout, ...).
 */
export const FEATURE_LEVEL = 496;
/** The Zulip release series whose API confab speaks; the contract's /ext endpoints are tagged 13.0. */
export const API_SERIES = "13.0";
export const CONFAB_VERSION = pkg.version;
export const SERVICE_VERSION = `${API_SERIES}-confab-${CONFAB_VERSION}`;

/** The version fields under the contract's service_* names and Zulip's zulip_* names. */
export const versionFields = () => ({
  service_feature_level: FEATURE_LEVEL,
  service_version: SERVICE_VERSION,
  service_merge_base: SERVICE_VERSION,
  zulip_feature_level: FEATURE_LEVEL,
  zulip_version: SERVICE_VERSION,
  zulip_merge_base: SERVICE_VERSION,
});
