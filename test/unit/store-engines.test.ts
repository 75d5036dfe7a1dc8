// The store is written once for both engines (docs/scaling.md, section 1): the same store calls against
// a migrated SQLite file and a migrated PostgreSQL database give the same results. The PostgreSQL half
// needs a server from the harness: where none can be started, the test is skipped, saying why.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { SQL } from "bun";
import { openDatabase, type Db } from "../../src/db/client";
import { desc, eq } from "drizzle-orm";
import { engineOf, openPostgres, tables } from "../../src/db/engine";
import { idsAggregate, idsTable, idsValue, inIds, inIdsPlaceholder } from "../../src/db/in-ids";
import { jsonBoolean } from "../../src/db/dialect";
import { preparedPerDb } from "../../src/db/prepared";
import { all, first, run } from "../../src/db/query";
import { migrate } from "../../src/db/migrate";
import { migratePostgres } from "../../src/db/migrate-pg";
import { raw } from "../../src/db/raw";
import { compileNarrow, type CompiledNarrow, type NarrowContext, type NarrowTerm } from "../../src/domain/narrow";
import { insertChannel, findChannel, findChannelByName, listChannels, channelStats, firstMessageIdSince } from "../../src/store/channels";
import { lastMessageId, readPendingRows, writePendingRead, writePendingRows } from "../../src/store/lazy-delivery";
import { changeFlag, flagsOf, receivedIds, starredIds, unreadRows, addReceived, recentConversations } from "../../src/store/message-flags";
import {
  deleteMessages,
  dmRecipient,
  findDmRecipient,
  findMessage,
  insertMessage,
  insertUserMessages,
  listMessagesByIds,
  maxMessageId,
  messageLookups,
  highlightMatches,
  indexMessages,
  reindexMessage,
  unindexedMessages,
  allAlertWords,
  channelsOfMessages,
  countTopicMessages,
  dmRecipientsWith,
  listMessageDates,
  listTopicMessageIds,
  topicExists,
  topicParticipants,
} from "../../src/store/messages";
import { firstUnreadId, rowsAfter, rowsBefore, rowsWithIds } from "../../src/store/narrow";
import { deleteReaction, findReaction, insertReaction } from "../../src/store/reactions";
import { findRealmByStringId, insertRealm, listRealms, updateRealm } from "../../src/store/realms";
import {
  activateSubscriptions,
  deactivateSubscriptions,
  isSubscribed,
  listUserSubscriptions,
  mutedChannelIds,
  realmSubscribers,
  subscriberIds,
} from "../../src/store/subscriptions";
import { addGroupMembers, addSubgroups, groupClosure, insertUserGroup, isUserInGroups, listRecursiveMemberIds } from "../../src/store/user-groups";
import {
  activeUserIdsAmong,
  countActiveUsers,
  findUserByEmail,
  findUserById,
  insertUser,
  listInactiveUserIds,
  listUsers,
  listUsersByIds,
  recentlyActiveUserIds,
  updateUser,
} from "../../src/store/users";
import { countAgentRunsByState, conversationMessages, failStaleRuns, findLiveRun, findMessageSender, insertRun } from "../../src/store/agent-runs";
import { addAlertWords, listAlertWords } from "../../src/store/alert-words";
import {
  insertAttachment,
  linkAttachments,
  linkedMessages,
  markUnreferenced,
  messageAttachmentIds,
  realmUploadBytes,
  unlinkAttachments,
} from "../../src/store/attachments";
import { putStorage, storageEntries, storageSize } from "../../src/store/bot-storage";
import { findDraft, insertDraft, listDrafts } from "../../src/store/drafts";
import { channelEmailSubscribers, topicFollowers, unreadMessagesSince, wildcardOverrides } from "../../src/store/email";
import { insertMute, isMuted, listMutedUsers, listMuterIds } from "../../src/store/muted-users";
import { listPresences, maxPresenceUpdateId, upsertPresence } from "../../src/store/presence";
import { archiveChannels, archiveMessages, archiveUsers } from "../../src/store/realm-exports";
import { dmRecipientIds, messagesSentBefore } from "../../src/store/retention";
import { hasNamedTopics, listTopicsOf, listUserTopics, setUserTopic, topicOfMessage } from "../../src/store/topics";
import { usersSharingWith } from "../../src/store/user-access";
import { listRealmStatuses, saveUserStatus } from "../../src/store/user-status";
import { listBotServices, saveBotService } from "../../src/store/bots";
import { findActiveChannelFolderByName, folderHasActiveChannels, insertChannelFolder, nextChannelFolderOrder } from "../../src/store/channel-folders";
import { insertDevice, listDevices } from "../../src/store/devices";
import { insertInvite, listOpenInvites } from "../../src/store/invites";
import { insertLinkifier, listLinkifiers } from "../../src/store/linkifiers";
import { insertView, listViews } from "../../src/store/navigation-views";
import { insertOutgoingWebhookCall, listDueOutgoingWebhookCalls, nextOutgoingWebhookDue } from "../../src/store/outgoing-webhooks";
import {
  countPluginsByState,
  findLink,
  findPluginByBot,
  insertLink,
  insertPlugin,
  listLinks,
  listPlugins,
  listSlots,
  saveSlot,
  updatePlugin,
} from "../../src/store/plugins";
import { insertProfileField, listRealmFieldValues, listUserFieldValues, nextFieldOrder, setFieldValue } from "../../src/store/profile-fields";
import { deletePushToken, hasPushToken, savePushToken } from "../../src/store/push-tokens";
import { insertRealmDomain, listRealmDomains } from "../../src/store/realm-domains";
import { findActiveEmoji, insertRealmEmoji } from "../../src/store/realm-emoji";
import { insertPlayground, listPlaygrounds } from "../../src/store/realm-playgrounds";
import { findRepositoryByName, insertRepository, listRepositories } from "../../src/store/repositories";
import { insertSnippet, listSnippets } from "../../src/store/saved-snippets";
import { insertScheduledMessage, listUndelivered, nextDue } from "../../src/store/scheduled-messages";
import { findSecretsByName, insertSecret, listSecrets, markSecretsUsed } from "../../src/store/secrets";
import { deleteExpiredSessions, findSessionByHash, insertSession } from "../../src/store/sessions";
import { firstWidgetSubmessage, hasSubmessageFrom, insertSubmessage } from "../../src/store/submessages";
import { findRealmUserDefaults, saveRealmUserDefaults } from "../../src/store/user-settings";
import { findDocument, findPreference, listDocuments, saveDocument, savePreference } from "../../src/store/widgets";
import { findTopicWorkspace, insertWorkspace, listWorkspaces, workspaceUuidsByTopic } from "../../src/store/workspaces";
import { renderMarkdown } from "../../src/render";
import { renderLookups } from "../../src/store/render-lookups";
import { postgresMissing, startPostgres, type Postgres } from "../helpers/postgres";

type Answers = Record<string, unknown>;

/** The helpers themselves (db/query.ts, db/raw.ts, db/prepared.ts, db/in-ids.ts). */
async function helpers(db: Db): Promise<Answers> {
  const out: Answers = {};
  const { realms } = tables(db);
  await run(
    db.insert(realms).values([
      { stringId: "a", name: "A", dateCreated: 1, settings: { x: true, list: [1] } },
      { stringId: "b", name: "B", dateCreated: 2, deactivated: true },
    ]),
  );
  out.first = await first(db.select().from(realms).where(eq(realms.stringId, "b")));
  out.none = (await first(db.select().from(realms).where(eq(realms.stringId, "z")))) ?? null;
  out.all = await all(db.select({ name: realms.name, deactivated: realms.deactivated }).from(realms).orderBy(realms.id));
  out.changes = (await run(db.update(realms).set({ description: "x" }))).changes;
  out.returning = await first(db.update(realms).set({ name: "B2" }).where(eq(realms.stringId, "b")).returning({ name: realms.name }));
  out.inIds = (
    await all(
      db
        .select({ id: realms.id })
        .from(realms)
        .where(inIds(db, realms.id, [2, 3])),
    )
  ).map((r) => r.id);
  const byIds = preparedPerDb((d) => {
    const { realms } = tables(d);
    return d.select({ id: realms.id }).from(realms).where(inIdsPlaceholder(d, realms.id)).orderBy(realms.id);
  });
  out.prepared = [await byIds(db).all({ ids: idsValue(db, [1, 2]) }), await byIds(db).get({ ids: idsValue(db, [2]) })];
  const r = raw(db);
  out.rawAll = await r.all(`SELECT id, string_id AS "stringId", deactivated, date_created + 1 AS later FROM realms ORDER BY id`);
  out.rawGet = await r.get("SELECT name FROM realms WHERE id = ?1 AND name <> ?2 AND name <> '?'", 2, "?");
  out.rawNone = await r.get("SELECT name FROM realms WHERE id = ?", 99);
  out.rawIds = await r.all(`SELECT id FROM realms WHERE id IN (SELECT value FROM ${idsTable(db, "?")}) ORDER BY id`, idsValue(db, [1, 2, 5]));
  out.rawJoin = await r.all(`SELECT j.value AS v FROM ${idsTable(db, "?", "j")} ORDER BY j.value`, idsValue(db, [3, 1]));
  out.rawRun = (await r.run("UPDATE realms SET icon_version = icon_version + 1 WHERE deactivated = ?", true)).changes;
  const batch = r.batch("UPDATE realms SET icon_version = icon_version + ? WHERE id = ?");
  batch.add(10, 1);
  batch.add(20, 2);
  await batch.done();
  const again = r.batch("UPDATE realms SET icon_version = icon_version * ? WHERE id = ?");
  again.add(2, 1);
  again.add(3, 2);
  await again.done();
  out.after = await r.all("SELECT icon_version AS v FROM realms ORDER BY id");
  out.aggregate = (await r.get<{ ids: string }>(`SELECT ${idsAggregate(db, "id")} AS ids FROM realms`))!.ids === idsValue(db, [1, 2]);
  // JSON columns hold JSON (not a JSON string of it) on both
  out.json = await r.get(`SELECT ${jsonBoolean(db, "settings", "x")} AS x FROM realms WHERE string_id = 'a'`);
  out.jsonText = JSON.parse((await r.get<{ settings: string }>("SELECT settings FROM realms WHERE string_id = 'a'"))!.settings);
  out.firstOfMany = await first(db.select({ id: realms.id }).from(realms).orderBy(desc(realms.id)));
  return out;
}

/** Every area's calls in one scenario, returning what they answered, for both engines to compare. */
async function scenario(db: Db): Promise<Answers> {
  const out: Answers = {};
  // Realms and users
  const realm = await insertRealm(db, { stringId: "acme", name: "Acme", dateCreated: 1_700_000_000, settings: { a: 1 } });
  await updateRealm(db, realm.id, { description: "Rockets" });
  out.realm = await findRealmByStringId(db, "acme");
  out.realms = (await listRealms(db)).length;
  const user = (email: string, fullName: string, role = 400) =>
    insertUser(db, { realmId: realm.id, email, fullName, role, apiKey: `key-${email}`, dateJoined: 1_700_000_000, settings: { theme: "dark" } });
  const ann = await user("ann@acme.test", "Ann", 100);
  const bob = await user("bob@acme.test", "Bob");
  const cy = await user("cy@acme.test", "Cy");
  await updateUser(db, cy.id, { isActive: false });
  out.annByEmail = await findUserByEmail(db, realm.id, "ANN@acme.test");
  out.bob = await findUserById(db, bob.id);
  out.users = (await listUsers(db, realm.id)).map((u) => [u.email, u.isActive, u.settings]);
  out.usersByIds = (await listUsersByIds(db, [cy.id, ann.id])).map((u) => u.id).sort();
  out.activeCount = await countActiveUsers(db, realm.id);
  out.inactive = [...(await listInactiveUserIds(db, realm.id))];
  out.activeAmong = [...(await activeUserIdsAmong(db, realm.id, [ann.id, bob.id, cy.id, 999]))].sort();
  // Channels and subscriptions
  const general = await insertChannel(db, { realmId: realm.id, name: "general", description: "", renderedDescription: "", dateCreated: 1_700_000_000 });
  const random = await insertChannel(db, { realmId: realm.id, name: "random", description: "", renderedDescription: "", dateCreated: 1_700_000_000 });
  out.channel = await findChannel(db, general.id);
  out.channelByName = (await findChannelByName(db, realm.id, "general"))?.id === general.id;
  out.channels = (await listChannels(db, realm.id)).map((c) => c.name);
  await activateSubscriptions(db, [
    { userId: ann.id, channelId: general.id, color: "#c2c2c2" },
    { userId: bob.id, channelId: general.id, color: "#76ce90" },
    { userId: ann.id, channelId: random.id, color: "#fae589" },
  ]);
  out.subscribers = await subscriberIds(db, general.id);
  out.annSubscriptions = (await listUserSubscriptions(db, ann.id)).map((s) => [s.channelId === general.id, s.active, s.color]);
  // Messages: inserted with the sender's row only; the subscribers' rows come lazily
  const send = async (senderId: number, recipientId: number, topic: string, content: string, rows: [number, number][]) => {
    const id = await insertMessage(db, {
      realmId: realm.id,
      senderId,
      recipientId,
      topic,
      content,
      renderedContent: `<p>${content}</p>`,
      dateSent: 1_700_000_100 + content.length,
      client: "test",
      hasLink: content.includes("http"),
      hasImage: false,
      hasAttachment: false,
      isMeMessage: false,
    });
    await insertUserMessages(db, id, rows);
    return id;
  };
  const m1 = await send(ann.id, general.recipientId, "Launch", "hello", [[ann.id, 1]]);
  const m2 = await send(bob.id, general.recipientId, "launch", "see http://x", [[bob.id, 1]]);
  const m3 = await send(ann.id, random.recipientId, "misc", "third", [[ann.id, 1]]);
  const dm = await dmRecipient(db, realm.id, [ann.id, bob.id]);
  const m4 = await send(bob.id, dm.id, "", "psst", [
    [bob.id, 1 | 256],
    [ann.id, 256],
  ]);
  out.message = await findMessage(db, m2);
  out.byIds = (await listMessagesByIds(db, [m3, m1])).map((m) => [m.topic, m.hasLink]);
  out.maxId = (await maxMessageId(db)) === m4;
  out.lastId = (await lastMessageId(db)) === m4;
  const lookups = await messageLookups(db, await listMessagesByIds(db, [m1, m2, m4]));
  out.lookups = { users: [...lookups.users.keys()].sort(), channelNames: [...lookups.channelNames.values()], recipients: lookups.recipients.size };
  // Lazy delivery: bob's rows of general, written from his pending list
  const pending = await readPendingRows(db, { userId: bob.id });
  out.pending = pending.map((p) => ({ ...p, userId: p.userId === bob.id, channelId: p.channelId === general.id, ids: undefined }));
  out.pendingWritten = await writePendingRead(db, pending);
  out.pendingAfter = (await readPendingRows(db, { channelIds: [general.id] })).map((p) => ({ ...p, ids: undefined })); // ids: in each engine's list form
  out.bobReceived = [...(await receivedIds(db, bob.id, [m1, m2, m3, m4]))].map((id) => [m1, m2, m3, m4].indexOf(id)).sort();
  // Flags
  out.starred = await changeFlag(db, ann.id, [m1, m3, m4], 2, true);
  out.starredAgain = await changeFlag(db, ann.id, [m1], 2, true);
  out.starredIds = (await starredIds(db, ann.id)).length;
  out.read = await changeFlag(db, ann.id, [m4], 1, true);
  out.flagsOf = await flagsOf(db, ann.id, m4);
  out.unread = (await unreadRows(db, bob.id, 10)).map((r) => [r.topic, r.flags, r.channelId === general.id]);
  out.conversations = (await recentConversations(db, ann.id, 5)).map((c) => c.key === dm.dmKey);
  await addReceived(db, [cy.id, bob.id], [m3], 8);
  out.cyReceived = (await receivedIds(db, cy.id, [m3])).size;
  // A narrow (a channel's messages as domain/narrow.ts compiles them, over the viewer's rows)
  const narrow: CompiledNarrow = {
    from: "messages m LEFT JOIN user_messages um ON um.user_id = ? AND um.message_id = m.id",
    where: ["m.recipient_id = ?"],
    params: [bob.id, general.recipientId],
    idCol: "m.id",
    flagsCol: "COALESCE(um.flags, -1)",
    includeHistory: true,
    search: null,
  };
  narrow.from = `messages m LEFT JOIN user_messages um ON um.user_id = ${bob.id} AND um.message_id = m.id`;
  narrow.params = [general.recipientId];
  out.narrowBefore = (await rowsBefore(db, narrow, null, 10)).map((r) => [r.id === m1 || r.id === m2, r.flags]);
  out.narrowAfter = (await rowsAfter(db, narrow, m2, 10)).length;
  out.narrowIds = (await rowsWithIds(db, narrow, [m1, m3])).length;
  out.stats = [...(await channelStats(db, realm.id, [general, random], 1_700_000_200)).values()];
  // Narrows as GET /messages compiles them (domain/narrow.ts), for ann
  const ctx: NarrowContext = {
    viewerId: ann.id,
    channel: async (op) => {
      const c = typeof op === "number" ? await findChannel(db, op) : await findChannelByName(db, realm.id, op);
      return c ? { id: c.id, recipientId: c.recipientId, isWebPublic: c.isWebPublic } : null;
    },
    canReadHistory: async () => true,
    canReadPublicHistory: true,
    publicChannelRecipients: () => [general.recipientId, random.recipientId],
    webPublicChannelRecipients: () => [],
    user: async (op) =>
      ((typeof op === "number" ? await findUserById(db, op) : await findUserByEmail(db, realm.id, op)) ?? null) && {
        id: typeof op === "number" ? op : (await findUserByEmail(db, realm.id, op))!.id,
      },
    dmRecipient: async (ids) => (await findDmRecipient(db, ids))?.id ?? null,
    dmRecipientsWith: (id, groupsOnly) => dmRecipientsWith(db, ann.id, id, groupsOnly),
    mutedChannelRecipients: async () => [random.recipientId],
    topicPolicies: async () => [{ recipientId: general.recipientId, topic: "launch", policy: 3 }],
  };
  const t = (operator: string, operand: NarrowTerm["operand"], negated = false): NarrowTerm => ({ operator, operand, negated });
  const narrows: Record<string, NarrowTerm[]> = {
    all: [],
    channel: [t("channel", "general")],
    topic: [t("channel", "general"), t("topic", "LAUNCH")],
    notGeneral: [t("channel", "general", true)],
    starred: [t("is", "starred")],
    unread: [t("is", "unread")],
    link: [t("has", "link")],
    noLink: [t("has", "link", true)],
    dms: [t("is", "dm")],
    dmWithBob: [t("dm", [bob.id])],
    home: [t("in", "home")],
    followed: [t("is", "followed")],
    fromBob: [t("sender", bob.id)],
    reaction: [t("has", "reaction")],
  };
  const index = (id: number) => [m1, m2, m3, m4].indexOf(id);
  const compiled: Record<string, unknown> = {};
  for (const [name, terms] of Object.entries(narrows)) {
    const c = await compileNarrow(terms, ctx, { realmId: realm.id });
    compiled[name] = (await rowsBefore(db, c, null, 10)).map((r) => [index(r.id), r.flags]);
  }
  out.compiledNarrows = compiled;
  out.firstUnread = index((await firstUnreadId(db, await compileNarrow([], ctx, { realmId: realm.id, forceUserMessages: true })))!);
  // Reactions
  await insertReaction(db, { messageId: m1, userId: bob.id, emojiName: "tada", emojiCode: "1f389", reactionType: "unicode_emoji" });
  const reaction = await findReaction(db, m1, bob.id, "unicode_emoji", "1f389");
  out.reaction = { ...reaction, id: typeof reaction?.id };
  out.reactionsInLookups = (await messageLookups(db, [(await findMessage(db, m1))!])).reactions.get(m1);
  await deleteReaction(db, reaction!.id);
  out.reactionGone = (await findReaction(db, m1, bob.id, "unicode_emoji", "1f389")) ?? null;
  // User groups
  const admins = await insertUserGroup(db, { realmId: realm.id, name: "admins", dateCreated: 1 } as never);
  const staff = await insertUserGroup(db, { realmId: realm.id, name: "staff", dateCreated: 1 } as never);
  await addGroupMembers(db, admins.id, [ann.id]);
  await addGroupMembers(db, staff.id, [bob.id, cy.id]);
  await addSubgroups(db, staff.id, [admins.id]);
  out.closure = (await groupClosure(db, [staff.id])).length;
  out.members = (await listRecursiveMemberIds(db, staff.id)).length;
  out.annInStaff = await isUserInGroups(db, ann.id, [staff.id]);
  out.annDirectlyInStaff = await isUserInGroups(db, ann.id, [staff.id], true);
  // Unsubscribing writes the pending rows first; deleting messages takes their rows along
  await deactivateSubscriptions(db, general.id, [ann.id]);
  out.annStillSubscribed = await isSubscribed(db, ann.id, general.id);
  await deleteMessages(db, [m2]);
  out.afterDelete = [(await findMessage(db, m2)) ?? null, (await receivedIds(db, bob.id, [m2])).size];
  // Hand-written SQL's results have SQLite's types on both: numbers, and booleans as 1 or 0
  out.raw = await raw(db).all(`SELECT id = ? AS "isAnn", is_active, COUNT(*) OVER () AS n FROM users WHERE realm_id = ? ORDER BY id`, ann.id, realm.id);
  return out;
}

/** Topics, conversations, email, exports, agent runs, attachments and the small per-user tables. */
async function moreAreas(db: Db): Promise<Answers> {
  const out: Answers = {};
  const realm = await insertRealm(db, { stringId: "acme", name: "Acme", dateCreated: 1 });
  const user = (email: string) =>
    insertUser(db, {
      realmId: realm.id,
      email,
      fullName: email,
      role: 400,
      apiKey: `k-${email}`,
      dateJoined: 1,
      settings: { enable_stream_email_notifications: true },
    });
  const ann = await user("ann@x.test");
  const bob = await user("bob@x.test");
  const general = await insertChannel(db, { realmId: realm.id, name: "general", description: "", renderedDescription: "", dateCreated: 1 });
  await activateSubscriptions(db, [
    { userId: ann.id, channelId: general.id, color: "#c2c2c2" },
    { userId: bob.id, channelId: general.id, color: "#76ce90" },
  ]);
  const send = async (senderId: number, topic: string, content: string, at: number) => {
    const id = await insertMessage(db, {
      ...{ realmId: realm.id, senderId, recipientId: general.recipientId, topic, content, renderedContent: `<p>${content}</p>`, dateSent: at },
      ...{ client: "test", hasLink: false, hasImage: false, hasAttachment: false, isMeMessage: false },
    });
    await insertUserMessages(db, id, [[senderId, 1]]);
    return id;
  };
  const m1 = await send(ann.id, "plans", "one", 100);
  const m2 = await send(bob.id, "Plans", "two, see http://x", 200);
  const m3 = await send(ann.id, "other", "three", 300);
  await writePendingRows(db, { channelIds: [general.id] });
  // Topics and conversations
  out.topicExists = [await topicExists(db, general.recipientId, "PLANS"), await topicExists(db, general.recipientId, "nope")];
  out.participants = (await topicParticipants(db, general.recipientId, "plans")).sort();
  out.topicIds = await listTopicMessageIds(db, general.recipientId, "plans", { receivedBy: bob.id });
  out.topicIdsLimited = await listTopicMessageIds(db, general.recipientId, "plans", { fromId: m2, receivedBy: null, limit: 5 });
  out.countTopic = await countTopicMessages(db, general.recipientId, "plans");
  out.dates = await listMessageDates(db, [m3, m1]);
  out.channelsOf = (await channelsOfMessages(db, [m1])).map((r) => r.c === general.id);
  out.topics = await listTopicsOf(db, general.recipientId, null);
  out.topicsReceived = await listTopicsOf(db, general.recipientId, bob.id);
  out.topicOf = await topicOfMessage(db, m3);
  out.namedTopics = await hasNamedTopics(db, general.recipientId);
  await setUserTopic(db, ann.id, general.id, "plans", 3, 500);
  out.userTopics = (await listUserTopics(db, ann.id)).map((t) => [t.topic, t.visibilityPolicy]);
  out.followers = await topicFollowers(db, general.id, "PLANS");
  out.dmWith = await dmRecipientsWith(db, ann.id, bob.id, false);
  out.sharing = [...(await usersSharingWith(db, ann.id))].sort();
  out.realmSubscribers = [...(await realmSubscribers(db, realm.id)).values()];
  out.muted = await mutedChannelIds(db, ann.id, { activeOnly: true });
  out.sinceId = await firstMessageIdSince(db, 150);
  // Search: the index written in batches, searches as GET /messages compiles them, highlights
  out.unindexed = (await unindexedMessages(db, 10)).map((r) => [r.topic, r.html]);
  await indexMessages(
    db,
    (await unindexedMessages(db, 10)).map((r) => ({ id: r.id, topic: r.topic, text: r.html.replace(/<[^>]+>/g, "") })),
  );
  out.unindexedAfter = (await unindexedMessages(db, 10)).length;
  await reindexMessage(db, m3, "other", "three");
  const searchCtx: NarrowContext = {
    viewerId: ann.id,
    channel: async (op) => (op === general.id || op === "general" ? { id: general.id, recipientId: general.recipientId, isWebPublic: false } : null),
    canReadHistory: async () => true,
    canReadPublicHistory: true,
    publicChannelRecipients: () => [general.recipientId],
    webPublicChannelRecipients: () => [],
    user: async () => null,
    dmRecipient: async () => null,
    dmRecipientsWith: async () => [],
    mutedChannelRecipients: async () => [],
    topicPolicies: async () => [],
  };
  const searches: Record<string, NarrowTerm[]> = {
    word: [{ operator: "search", operand: "one", negated: false }],
    topic: [{ operator: "search", operand: "plans", negated: false }],
    stemmed: [{ operator: "search", operand: "plan", negated: false }],
    twoWords: [{ operator: "search", operand: "three other", negated: false }],
    phrase: [{ operator: "search", operand: '"see http"', negated: false }],
    stopWordsOnly: [{ operator: "search", operand: "the", negated: false }],
    inChannel: [
      { operator: "channel", operand: "general", negated: false },
      { operator: "search", operand: "plans", negated: false },
    ],
    excluding: [
      { operator: "channel", operand: "general", negated: false },
      { operator: "search", operand: "two", negated: true },
    ],
  };
  const found: Record<string, unknown> = {};
  for (const [name, terms] of Object.entries(searches)) {
    const c = await compileNarrow(terms, searchCtx, { realmId: realm.id });
    const rows = await rowsBefore(db, c, null, 10);
    const hl = await highlightMatches(
      db,
      c.search?.match ?? null,
      await listMessagesByIds(
        db,
        rows.map((r) => r.id),
      ),
    );
    found[name] = rows.map((r) => [[m1, m2, m3].indexOf(r.id), hl.get(r.id)]);
  }
  out.searches = found;
  // The renderer's lookups: answered at once on SQLite, read between renders on PostgreSQL
  await insertUserGroup(db, { realmId: realm.id, name: "Staff", dateCreated: 1 } as never);
  const secret = await insertChannel(db, { realmId: realm.id, name: "secret", description: "", renderedDescription: "", dateCreated: 1, inviteOnly: true });
  const lookups = await renderLookups(db, realm.id, bob.id);
  const ctx = { ...lookups, realmUrl: "http://acme.test", realmEmoji: () => null, linkifiers: [] };
  const text = `@**ann@x.test** @**bob@x.test|${bob.id}** @*staff* #**general>plans** #**secret** #**nope**`;
  let rendered = renderMarkdown(text, ctx);
  let renders = 1;
  while (lookups.missed()) {
    await lookups.readMissed();
    rendered = renderMarkdown(text, ctx);
    renders++;
  }
  out.rendered = [rendered.html, rendered.mentionedUserIds, secret.id > 0];
  out.renders = engineOf(db) === "postgres" ? renders === 3 : renders === 1;
  out.retention = [(await messagesSentBefore(db, general.recipientId, 250, 10)).map((m) => m.id), await dmRecipientIds(db, realm.id)];
  // Email
  out.emailSubscribers = (await channelEmailSubscribers(db, general.id)).sort();
  out.unreadSince = (await unreadMessagesSince(db, bob.id, [m1, m2, m3], 150)).map((m) => [m.id, m.topic, m.hasLink]);
  out.wildcards = [...(await wildcardOverrides(db, general.id, [ann.id, bob.id]))];
  // Exports
  out.archiveUsers = await archiveUsers(db, realm.id);
  out.archiveChannels = await archiveChannels(db, realm.id);
  out.archiveMessages = await archiveMessages(db, realm.id);
  // Agent runs
  out.conversation = await conversationMessages(db, general.recipientId, "plans", m3, 10, bob.id);
  out.sender = await findMessageSender(db, m2);
  const agentRun = await insertRun(db, {
    realmId: realm.id,
    requestedBy: ann.id,
    channelId: general.id,
    recipientId: general.recipientId,
    topic: "plans",
    messageId: m1,
    state: "running",
    dateStarted: 7,
  });
  out.liveRun = (await findLiveRun(db, general.recipientId, "PLANS"))?.id === agentRun.id;
  await failStaleRuns(db, 8, 100);
  out.runsByState = await countAgentRunsByState(db);
  // Attachments
  const a = await insertAttachment(db, {
    realmId: realm.id,
    ownerId: ann.id,
    pathId: "1/ab/f.txt",
    name: "f.txt",
    contentType: "text/plain",
    size: 5,
    createTime: 1,
    unreferencedSince: null,
  });
  await linkAttachments(db, m1, [a.id]);
  out.linked = [...(await linkedMessages(db, [a.id]))];
  out.messageAttachments = await messageAttachmentIds(db, [m1, m2]);
  out.uploadBytes = await realmUploadBytes(db, realm.id);
  await unlinkAttachments(db, [m1]);
  out.unreferenced = await markUnreferenced(db, [a.id], 900);
  // Small per-user tables
  await addAlertWords(db, ann.id, ["Rocket", "moon"]);
  out.alertWords = [await listAlertWords(db, ann.id), [...(await allAlertWords(db))]];
  await insertMute(db, ann.id, bob.id, 5);
  out.mutes = [await isMuted(db, ann.id, bob.id), await listMuterIds(db, bob.id)];
  await upsertPresence(db, { userId: ann.id, realmId: realm.id, lastConnectedTime: 10, lastActiveTime: 9, lastUpdateId: 1 });
  await upsertPresence(db, { userId: ann.id, realmId: realm.id, lastConnectedTime: 20, lastActiveTime: 19, lastUpdateId: 2 });
  out.presence = [await listPresences(db, realm.id, 0), await maxPresenceUpdateId(db, realm.id)];
  await putStorage(db, bob.id, "k", "value");
  out.storage = [await storageSize(db, bob.id), [...(await storageEntries(db, bob.id, ["k", "x"]))]];
  const draft = await insertDraft(db, ann.id, { type: "stream", to: [general.id], topic: "t", content: "c", timestamp: 3 });
  out.drafts = [(await listDrafts(db, ann.id)).map((d) => d.to), (await findDraft(db, ann.id, draft.id))?.content];
  await saveUserStatus(db, { userId: bob.id, away: true, statusText: "out", emojiName: "", emojiCode: "", reactionType: "", timestamp: 4 });
  out.statuses = await listRealmStatuses(db, realm.id);
  out.recentlyActive = await recentlyActiveUserIds(db, realm.id, 15);
  return out;
}

/** Extensions, settings and the realm's smaller tables. */
async function extensions(db: Db): Promise<Answers> {
  const out: Answers = {};
  const realm = await insertRealm(db, { stringId: "acme", name: "Acme", dateCreated: 1 });
  const ann = await insertUser(db, { realmId: realm.id, email: "ann@x.test", fullName: "Ann", role: 100, apiKey: "k1", dateJoined: 1 });
  const bot = await insertUser(db, {
    realmId: realm.id,
    email: "bot@x.test",
    fullName: "Bot",
    role: 400,
    apiKey: "k2",
    dateJoined: 1,
    isBot: true,
    botType: 4,
    botOwnerId: ann.id,
  });
  const general = await insertChannel(db, { realmId: realm.id, name: "general", description: "", renderedDescription: "", dateCreated: 1 });
  const m = await insertMessage(db, {
    ...{ realmId: realm.id, senderId: ann.id, recipientId: general.recipientId, topic: "t", content: "c", renderedContent: "<p>c</p>", dateSent: 5 },
    ...{ client: "test", hasLink: false, hasImage: false, hasAttachment: false, isMeMessage: false },
  });
  // Plugins, their secrets, links and widgets
  const repo = await insertRepository(db, { realmId: realm.id, name: "tools", createdBy: ann.id, dateCreated: 2 } as never);
  out.repos = [(await listRepositories(db, realm.id)).map((r) => r.name), (await findRepositoryByName(db, realm.id, "tools"))?.id === repo.id];
  const plugin = await insertPlugin(db, {
    ...{ realmId: realm.id, plugin: "poll", name: "Poll", version: "1.0.0", sourceKind: "local", sourceRepositoryId: repo.id },
    ...{ manifest: { name: "poll", tools: ["a"] } as never, state: "running", botUserId: bot.id, installedBy: ann.id, dateInstalled: 3 },
  });
  await updatePlugin(db, plugin.id, { state: "stopped" });
  out.plugins = [await listPlugins(db, realm.id), (await findPluginByBot(db, bot.id))?.id === plugin.id, await countPluginsByState(db)];
  await saveSlot(db, { installId: plugin.id, name: "TOKEN", sealed: "s1", hint: "…1", setBy: ann.id, dateSet: 4 });
  await saveSlot(db, { installId: plugin.id, name: "TOKEN", sealed: "s2", hint: "…2", setBy: ann.id, dateSet: 5 });
  out.slots = await listSlots(db, [plugin.id]);
  const link = await insertLink(db, { installId: plugin.id, kind: "channel", value: "general", streamId: general.id, topic: null } as never);
  out.links = [(await listLinks(db, [plugin.id])).length, (await findLink(db, link.id))?.kind];
  const scope = { installId: plugin.id, widget: "board", linkId: 0, item: "" };
  await saveDocument(db, { ...scope, document: { votes: { a: 1 }, list: [1, 2] }, version: 1, dateUpdated: 6 });
  await saveDocument(db, { ...scope, document: { votes: { a: 2 } }, version: 2, dateUpdated: 7 });
  out.document = [await findDocument(db, scope), (await listDocuments(db, [plugin.id])).length];
  await savePreference(db, { userId: ann.id, installId: plugin.id, widget: "board", shown: true, filters: { a: "b" }, alerts: null, inColumn: false } as never);
  out.preference = await findPreference(db, ann.id, plugin.id, "board");
  const secret = await insertSecret(db, { realmId: realm.id, name: "API", sealed: "x", hint: "…x", addedBy: ann.id, dateAdded: 8 } as never);
  await markSecretsUsed(db, [secret.id], 9);
  out.secrets = [await findSecretsByName(db, realm.id, ["API", "NONE"]), (await listSecrets(db, realm.id)).length];
  await saveBotService(db, bot.id, { base_url: "http://b", token: "t", interface: 1 });
  out.botServices = [...(await listBotServices(db, [bot.id]))];
  await insertOutgoingWebhookCall(db, { botId: bot.id, messageId: m, trigger: "mention", message: { id: m }, nextAttemptAt: 1_700_000_000_123 } as never);
  out.webhooks = [(await listDueOutgoingWebhookCalls(db, 1_800_000_000_000, 5)).map((c) => [c.nextAttemptAt, c.message]), await nextOutgoingWebhookDue(db)];
  const ws = await insertWorkspace(db, {
    uuid: "u-1",
    realmId: realm.id,
    repositoryId: repo.id,
    channelId: general.id,
    topic: "Plans",
    branch: "b",
    createdBy: ann.id,
    dateCreated: 9,
  } as never);
  out.workspaces = [
    (await findTopicWorkspace(db, general.id, "plans"))?.id === ws.id,
    [...(await workspaceUuidsByTopic(db, realm.id))],
    (await listWorkspaces(db, realm.id, { channelId: general.id })).length,
  ];
  await insertSubmessage(db, { messageId: m, senderId: ann.id, msgType: "widget", content: "{}" });
  out.submessages = [(await firstWidgetSubmessage(db, m))?.content, await hasSubmessageFrom(db, m, ann.id)];
  // Realm settings and smaller tables
  const field = await insertProfileField(db, { realmId: realm.id, name: "Phone", type: 1, order: await nextFieldOrder(db, realm.id) });
  await setFieldValue(db, ann.id, field.id, "123");
  out.fields = [
    await nextFieldOrder(db, realm.id),
    [...(await listUserFieldValues(db, ann.id))],
    [...(await listRealmFieldValues(db, realm.id))].map(([u, v]) => [u, [...v]]),
  ];
  const folder = await insertChannelFolder(db, { realmId: realm.id, name: "Work", dateCreated: 1, order: await nextChannelFolderOrder(db, realm.id) } as never);
  out.folders = [
    (await findActiveChannelFolderByName(db, realm.id, "WORK"))?.id === folder.id,
    await folderHasActiveChannels(db, folder.id),
    await nextChannelFolderOrder(db, realm.id),
  ];
  await insertInvite(db, {
    realmId: realm.id,
    referredBy: ann.id,
    isMultiuse: false,
    key: "inv",
    invitedAs: 400,
    streamIds: [general.id],
    groupIds: [],
    includeRealmDefaultSubscriptions: true,
    dateCreated: 10,
  } as never);
  out.invites = (await listOpenInvites(db, realm.id, 11)).map((i) => [i.streamIds, i.isMultiuse, i.includeRealmDefaultSubscriptions]);
  await insertLinkifier(db, { realmId: realm.id, pattern: "#(?P<id>[0-9]+)", urlTemplate: "https://x/{id}" } as never);
  out.linkifiers = (await listLinkifiers(db, realm.id)).map((l) => l.pattern);
  await insertRealmEmoji(db, { realmId: realm.id, name: "party", fileName: "p.png", authorId: ann.id } as never);
  out.emoji = (await findActiveEmoji(db, realm.id, "party"))?.fileName;
  await insertRealmDomain(db, realm.id, "x.test", true);
  out.domains = (await listRealmDomains(db, realm.id)).map((d) => [d.domain, d.allowSubdomains]);
  await insertPlayground(db, { realmId: realm.id, name: "Py", pygmentsLanguage: "python", urlTemplate: "https://p/{code}" });
  out.playgrounds = (await listPlaygrounds(db, realm.id)).map((p) => p.name);
  await insertSnippet(db, { userId: ann.id, title: "Hi", content: "Hello", dateCreated: 1 });
  out.snippets = (await listSnippets(db, ann.id)).map((x) => x.title);
  await insertView(db, { userId: ann.id, fragment: "inbox", isPinned: true } as never);
  out.views = (await listViews(db, ann.id)).map((v) => [v.fragment, v.isPinned]);
  await savePushToken(db, ann.id, "fcm", "tok", null, 12);
  out.push = [await hasPushToken(db, ann.id, "tok"), await deletePushToken(db, ann.id, "fcm", "tok"), await hasPushToken(db, ann.id, "tok")];
  await insertDevice(db, ann.id, 13);
  out.devices = (await listDevices(db, ann.id)).length;
  await saveRealmUserDefaults(db, realm.id, { twenty_four_hour_time: true });
  out.defaults = await findRealmUserDefaults(db, realm.id);
  await insertSession(db, { userId: ann.id, tokenHash: "h", csrfToken: "c", dateCreated: 1, expiresAt: 100 });
  out.sessions = [(await findSessionByHash(db, "h"))?.userId === ann.id];
  await deleteExpiredSessions(db, 200);
  out.sessions = [...(out.sessions as unknown[]), (await findSessionByHash(db, "h")) ?? null];
  const scheduled = await insertScheduledMessage(db, {
    ...{ realmId: realm.id, senderId: ann.id, kind: "send_later", type: "stream", to: [general.id], topic: "t", content: "later" },
    ...{ renderedContent: "<p>later</p>", scheduledAt: 50, readBySender: true, client: "test", reminderTargetMessageId: null, reminderNote: null },
  });
  out.scheduled = [(await listUndelivered(db, ann.id, "send_later")).map((x) => x.to), (await nextDue(db, 60))?.id === scheduled.id];
  await insertMute(db, ann.id, bot.id, 1);
  out.mutedUsers = await listMutedUsers(db, ann.id);
  return out;
}

const SCENARIOS: Record<string, (db: Db) => Promise<Answers>> = {
  "the helpers": helpers,
  "realms, users, channels, subscriptions, messages, lazy delivery, flags, a narrow, reactions, groups": scenario,
  "topics, conversations, email, exports, agent runs, attachments, per-user tables": moreAreas,
  "plugins, widgets, secrets, webhooks, workspaces, realm settings and smaller tables": extensions,
};

describe("the store on both engines", () => {
  const dir = mkdtempSync(join(tmpdir(), "confab-engines-"));
  let pg: Postgres | null = null;
  const clients: SQL[] = [];
  const missing = postgresMissing("store-engines (PostgreSQL half)");
  const ofSqlite = new Map<string, Answers>();

  beforeAll(async () => {
    if (!missing) pg = await startPostgres();
  }, 60_000);
  afterAll(async () => {
    for (const c of clients) await c.close();
    await pg?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  let n = 0;
  for (const [name, scenario] of Object.entries(SCENARIOS)) {
    const k = ++n;
    test(`${name}: SQLite`, async () => {
      const { sqlite, db } = openDatabase(join(dir, `${k}.db`), { synchronous: "normal", busyTimeoutMs: 1000 });
      migrate(sqlite);
      expect(engineOf(db)).toBe("sqlite");
      ofSqlite.set(name, await scenario(db));
      sqlite.close();
    });

    test.skipIf(!!missing)(
      `${name}: PostgreSQL answers as SQLite does`,
      async () => {
        const opened = await openPostgres(await pg!.createDatabase(`s${k}`), { max: 4 });
        clients.push(opened.client);
        await migratePostgres(opened.client);
        expect(engineOf(opened.db)).toBe("postgres");
        const answers = await scenario(opened.db);
        const expected = ofSqlite.get(name);
        expect(expected).toBeDefined();
        // Key by key, so that a difference names its call.
        for (const [key, value] of Object.entries(expected!)) expect({ [key]: answers[key] }).toEqual({ [key]: value });
      },
      60_000,
    );
  }
});
