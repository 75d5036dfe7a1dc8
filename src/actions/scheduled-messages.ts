// Scheduled messages and reminders: stored, listed, edited and removed here; sent when due by
// `deliverDue`, which the scheduler (runtime/scheduler.ts) calls. Both are Zulip's ScheduledMessage
// rows, one table and one delivery path.
import type { App } from "../context";
import type { RealmRow, ScheduledMessageRow, UserRow } from "../db/schema";
import type { Tx } from "../db/tx";
import {
  ApiError,
  deliveryTimeNotInFuture,
  invalidDataTypeChannel,
  maximumReminderNoteLengthCharacters,
  nothingToChange,
  realmDeactivated,
  recipientRequiredWhenUpdatingType,
  reminderNotFound,
  scheduledMessageAlreadySent,
  scheduledMessageNotFound,
  topicRequiredWhenUpdatingScheduled,
  userDeactivated,
} from "../domain/errors";
import { MAX_REMINDER_NOTE_LENGTH, reminderContent, scheduledFailureContent, toApiReminder, toApiScheduledMessage } from "../domain/scheduled-messages";
import { toUsers } from "../events/types";
import { messageNarrowUrl } from "../render/urls";
import { findRecipient } from "../store/messages";
import { findRealmById } from "../store/realms";
import * as store from "../store/scheduled-messages";
import { findUserById, listUsersByIds } from "../store/users";
import { accessMessage } from "./message-fetch";
import { checkSend, sendMessage, sendNotificationTx, type CheckedSend } from "./messages";
import { renderFor } from "./render";
import { p, t, type Args } from "../domain/params";

type Recipient = number | number[];
const messageType = () => p.enum(["direct", "channel", "stream", "private"] as const);
/** A channel's id (alone or in a list) or the direct message's user ids. */
const recipient = () => p.json(t.union<Recipient>(t.int(), t.list(t.int())));

export const scheduleParams = {
  type: messageType(),
  to: recipient(),
  content: p.str(),
  topic: p.str().optional(),
  scheduled_delivery_timestamp: p.int(),
  read_by_sender: p.bool().optional(),
};
export type ScheduleArgs = Args<typeof scheduleParams>;

const apiType = (t: ScheduleArgs["type"]) => (t === "channel" || t === "stream" ? "stream" : "private");

function checkFuture(app: App, at: number) {
  if (at <= app.now()) throw deliveryTimeNotInFuture();
}

/** The send checks of POST /messages for this audience; `to` as stored: [channel id], or the recipients. */
async function checkAudience(
  app: App,
  realm: RealmRow,
  sender: UserRow,
  type: "stream" | "private",
  to: Recipient,
  topic: string | undefined,
  content: string,
) {
  const ids = Array.isArray(to) ? to : [to];
  if (type === "stream" && ids.length !== 1) throw invalidDataTypeChannel();
  const c: CheckedSend = await checkSend(app, realm, sender, { type, to: type === "stream" ? ids[0] : ids, content, topic });
  const stored = c.channel ? [c.channel.id] : c.participants.filter((u) => u.id !== sender.id).map((u) => u.id);
  return { c, to: stored.length ? stored : [sender.id] };
}

const emitScheduled = (tx: Tx, user: UserRow, event: Record<string, unknown>) => tx.emit({ type: "scheduled_messages", ...event }, toUsers([user.id]));

// ---- Scheduled messages ----

export const listScheduledMessages = async (app: App, user: UserRow) => ({
  scheduled_messages: (await store.listUndelivered(app.db, user.id, "send_later")).map(toApiScheduledMessage),
});

/** POST /scheduled_messages: checked now as a send would be, and again when it is sent. */
export async function createScheduledMessage(app: App, realm: RealmRow, user: UserRow, a: ScheduleArgs, client = "API") {
  checkFuture(app, a.scheduled_delivery_timestamp);
  const type = apiType(a.type);
  const { c, to } = await checkAudience(app, realm, user, type, a.to, a.topic, a.content);
  const toSelf = type === "private" && to.length === 1 && to[0] === user.id;
  return await app.tx(async (tx) => {
    const row = await store.insertScheduledMessage(tx.db, {
      realmId: realm.id,
      senderId: user.id,
      kind: "send_later",
      type,
      to,
      topic: c.topic,
      content: c.content,
      renderedContent: c.rendered.html,
      scheduledAt: a.scheduled_delivery_timestamp,
      readBySender: a.read_by_sender ?? !toSelf,
      client,
      reminderTargetMessageId: null,
      reminderNote: null,
    });
    emitScheduled(tx, user, { op: "add", scheduled_messages: [toApiScheduledMessage(row)] });
    return { scheduled_message_id: row.id };
  });
}

export const editScheduleParams = {
  type: messageType().optional(),
  to: recipient().optional(),
  content: p.str().optional(),
  topic: p.str().optional(),
  scheduled_delivery_timestamp: p.int().optional(),
};

/** PATCH /scheduled_messages/{id}: any of audience, topic, content and time; a failed one needs a new time. */
export async function editScheduledMessage(app: App, realm: RealmRow, user: UserRow, id: number, a: Args<typeof editScheduleParams>, client = "API") {
  if (a.type === undefined && a.to === undefined && a.topic === undefined && a.content === undefined && a.scheduled_delivery_timestamp === undefined)
    throw nothingToChange();
  if (a.type !== undefined && a.to === undefined) throw recipientRequiredWhenUpdatingType();
  if (a.type !== undefined && apiType(a.type) === "stream" && a.topic === undefined) throw topicRequiredWhenUpdatingScheduled();
  if (a.scheduled_delivery_timestamp !== undefined) checkFuture(app, a.scheduled_delivery_timestamp);
  const row = await store.findScheduledMessage(app.db, user.id, "send_later", id);
  if (!row) throw scheduledMessageNotFound();
  if (row.delivered) throw scheduledMessageAlreadySent();
  if (row.failed && a.scheduled_delivery_timestamp === undefined) throw deliveryTimeNotInFuture();
  const patch: Partial<ScheduledMessageRow> = { client, failed: false, failureMessage: null };
  if (a.type !== undefined || a.to !== undefined || a.content !== undefined) {
    const type = a.type !== undefined ? apiType(a.type) : row.type;
    const to = a.to ?? (type === "stream" ? row.to[0]! : row.to);
    const topic = type === "stream" ? (a.topic ?? row.topic) : undefined;
    const checked = await checkAudience(app, realm, user, type, to, topic, a.content ?? row.content);
    Object.assign(patch, { type, to: checked.to, topic: checked.c.topic, content: checked.c.content, renderedContent: checked.c.rendered.html });
  } else if (a.topic !== undefined && row.type === "stream") {
    // A new topic alone: checked against the same channel.
    const checked = await checkAudience(app, realm, user, "stream", row.to[0]!, a.topic, row.content);
    patch.topic = checked.c.topic;
  }
  if (a.scheduled_delivery_timestamp !== undefined) patch.scheduledAt = a.scheduled_delivery_timestamp;
  await app.tx(async (tx) => {
    const updated = await store.updateScheduledMessage(tx.db, row.id, patch);
    emitScheduled(tx, user, { op: "update", scheduled_message: toApiScheduledMessage(updated) });
  });
  return {};
}

export async function deleteScheduledMessage(app: App, user: UserRow, id: number) {
  const row = await store.findScheduledMessage(app.db, user.id, "send_later", id);
  if (!row) throw scheduledMessageNotFound();
  await app.tx(async (tx) => {
    await store.deleteScheduledMessage(tx.db, row.id);
    emitScheduled(tx, user, { op: "remove", scheduled_message_id: row.id });
  });
  return {};
}

// ---- Reminders ----

const emitReminder = (tx: Tx, user: UserRow, event: Record<string, unknown>) => tx.emit({ type: "reminders", ...event }, toUsers([user.id]));

export const listReminders = async (app: App, user: UserRow) => ({ reminders: (await store.listUndelivered(app.db, user.id, "remind")).map(toApiReminder) });

/** The reminder's text for a message the user can read now (throws `Invalid message(s)` otherwise). */
async function reminderText(app: App, realm: RealmRow, user: UserRow, messageId: number, note: string | null): Promise<string> {
  const { message, channel } = await accessMessage(app, realm, user, messageId);
  const sender = (await findUserById(app.db, message.senderId))!;
  let where: Parameters<typeof reminderContent>[0]["where"];
  let url: string;
  if (channel) {
    where = { link: `#**${channel.name}>${message.topic}@${message.id}**` };
    url = messageNarrowUrl(message.id, { channel, topic: message.topic });
  } else {
    const ids = (await findRecipient(app.db, message.recipientId))!.dmKey!.split(",").map(Number);
    const others = await listUsersByIds(
      app.db,
      ids.filter((id) => id !== sender.id),
    );
    where = { others: others.length ? others : [sender] };
    url = messageNarrowUrl(message.id, { participantIds: ids });
  }
  return reminderContent({ id: message.id, content: message.content, sender, url, where }, note, app.config.limits.maxMessageLength);
}

export const reminderParams = {
  message_id: p.int(),
  scheduled_delivery_timestamp: p.int(),
  note: p.str().optional(),
};

/** POST /reminders: the notification bot reminds the user of a message they can read, at the given time. */
export async function createReminder(app: App, realm: RealmRow, user: UserRow, a: Args<typeof reminderParams>, client = "API") {
  checkFuture(app, a.scheduled_delivery_timestamp);
  const note = a.note === undefined ? null : a.note.replace(/^\n+/, "").trimEnd();
  if (note !== null && [...note].length > MAX_REMINDER_NOTE_LENGTH) throw maximumReminderNoteLengthCharacters(MAX_REMINDER_NOTE_LENGTH);
  const content = await reminderText(app, realm, user, a.message_id, note || null);
  const rendered = await renderFor(app, realm, user, content);
  return await app.tx(async (tx) => {
    const row = await store.insertScheduledMessage(tx.db, {
      realmId: realm.id,
      senderId: user.id,
      kind: "remind",
      type: "private",
      to: [user.id],
      topic: "",
      content,
      renderedContent: rendered.html,
      scheduledAt: a.scheduled_delivery_timestamp,
      readBySender: false,
      client,
      reminderTargetMessageId: a.message_id,
      reminderNote: note || null,
    });
    emitReminder(tx, user, { op: "add", reminders: [toApiReminder(row)] });
    return { reminder_id: row.id };
  });
}

export async function deleteReminder(app: App, user: UserRow, id: number) {
  const row = await store.findScheduledMessage(app.db, user.id, "remind", id);
  if (!row || row.delivered) throw reminderNotFound();
  await app.tx(async (tx) => {
    await store.deleteScheduledMessage(tx.db, row.id);
    emitReminder(tx, user, { op: "remove", reminder_id: row.id });
  });
  return {};
}

// ---- Delivery ----

/** Sends one due row: the message (re-checked as if sent now) or the reminder, marked sent in the same transaction. */
async function deliverOne(app: App, row: ScheduledMessageRow, realm: RealmRow | undefined, sender: UserRow | undefined) {
  if (!realm || realm.deactivated) throw realmDeactivated();
  if (!sender || !sender.isActive) throw userDeactivated();
  await app.tx(async (tx) => {
    let messageId: number;
    if (row.kind === "remind") {
      // The reminder quotes the message as it is now, if the user can still read it.
      let content = row.content;
      try {
        content = await reminderText(app, realm, sender, row.reminderTargetMessageId!, row.reminderNote);
      } catch (e) {
        if (!(e instanceof ApiError)) throw e;
      }
      messageId = await sendNotificationTx(app, tx, realm, { to: sender }, content);
      emitReminder(tx, sender, { op: "remove", reminder_id: row.id });
    } else {
      const to = row.type === "stream" ? row.to[0] : row.to;
      messageId = (
        await sendMessage(
          app,
          realm,
          sender,
          { type: row.type, to, content: row.content, topic: row.type === "stream" ? row.topic : undefined, read_by_sender: row.readBySender },
          row.client,
        )
      ).id;
      emitScheduled(tx, sender, { op: "remove", scheduled_message_id: row.id });
    }
    await store.updateScheduledMessage(tx.db, row.id, { delivered: true, deliveredMessageId: messageId });
  });
}

/** Marks a row failed as Zulip does: the sender's clients hear of it and the notification bot says why. */
async function markFailed(app: App, row: ScheduledMessageRow, realm: RealmRow | undefined, sender: UserRow | undefined, e: unknown) {
  const message = e instanceof ApiError ? e.message : "Internal server error";
  if (!(e instanceof ApiError)) app.log.error("scheduled message failed", { id: row.id, error: String((e as Error)?.stack ?? e) });
  await app.tx(async (tx) => {
    const failed = await store.updateScheduledMessage(tx.db, row.id, { failed: true, failureMessage: message });
    // Reminders only show the flag; nobody is told on behalf of a deactivated sender or organization.
    if (!realm || realm.deactivated || !sender || !sender.isActive || row.kind === "remind") return;
    emitScheduled(tx, sender, { op: "update", scheduled_message: toApiScheduledMessage(failed) });
    await sendNotificationTx(app, tx, realm, { to: sender }, scheduledFailureContent(row.scheduledAt, message));
  });
}

/** Sends (or marks failed) every row due by now, oldest first; each exactly once. Returns how many. */
export async function deliverDue(app: App): Promise<number> {
  let n = 0;
  for (let row = await store.nextDue(app.db, app.now()); row; row = await store.nextDue(app.db, app.now()), n++) {
    const realm = await findRealmById(app.db, row.realmId);
    const sender = await findUserById(app.db, row.senderId);
    try {
      await deliverOne(app, row, realm, sender);
    } catch (e) {
      await markFailed(app, row, realm, sender, e); // a throw here stops this round; the row is retried next round
    }
  }
  return n;
}
