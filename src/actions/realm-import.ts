// `confab import`: a Zulip export (a directory or its .tar.gz) or a Slack export (.zip) becomes a NEW
// organization, in one transaction: if anything in it is refused, nothing is written.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { App } from "../context";
import type { ChannelRow, RealmRow, UserRow } from "../db/schema";
import { FLAG } from "../domain/message-flags";
import { pickColor } from "../domain/channels";
import type { Archive } from "../domain/realm-archive";
import { KEPT_FLAGS } from "../domain/realm-archive";
import { isRole, ROLE } from "../domain/roles";
import { fromSlackExport, type SlackExportFiles } from "../domain/slack-export";
import { fromZulipExport, messagesFileName, type ZulipExportFiles } from "../domain/zulip-export";
import { emojiByName } from "../render";
import { safeFileName, uploadContentType, uploadUrl } from "../domain/uploads";
import { pushTo } from "../lib/collections";
import { randomToken } from "../lib/random";
import { findAttachmentsByPaths, insertAttachment, linkAttachments } from "../store/attachments";
import { uploadFilePath } from "./attachments";
import { insertChannelTx } from "./channels";
import { renderFor } from "./render";
import { checkNewRealm, insertRealmTx } from "./realms";
import { insertUserTx } from "./users";
import { startDeliveries } from "../store/lazy-delivery";
import * as messages from "../store/messages";
import { insertReaction } from "../store/reactions";
import { updateChannel } from "../store/channels";
import { activateSubscriptions, subscriberIds, updateSubscription, usedColors } from "../store/subscriptions";
import { updateUser } from "../store/users";
import { mapInOrder } from "../lib/in-order";

export interface ImportSource {
  archive: Archive;
  /** The bytes of an archived file, by its `source`; null when the export lacks them. */
  readFile(source: string): Uint8Array | null;
  /** Removes temporary files. */
  dispose(): Promise<void>;
}

const readJson = (path: string): any => JSON.parse(readFileSync(path, "utf8"));

/** The export directory: the path itself, or the one folder inside it that holds realm.json. */
function zulipRoot(dir: string): string {
  if (existsSync(join(dir, "realm.json"))) return dir;
  const inner = readdirSync(dir)
    .map((n) => join(dir, n))
    .find((p) => statSync(p).isDirectory() && existsSync(join(p, "realm.json")));
  if (!inner) throw new Error(`${dir} holds no realm.json: not a Zulip export`);
  return inner;
}

/** A Zulip export directory or .tar.gz, as written by Zulip's `manage.py export` or `confab export`. */
export async function readZulipExport(path: string): Promise<ImportSource> {
  let temp: string | null = null;
  let dir = path;
  if (!statSync(path).isDirectory()) {
    temp = await mkdtemp(join(tmpdir(), "confab-import-"));
    const tar = await import("tar"); // archive libraries load on use, not at every CLI start
    await tar.x({ file: path, cwd: temp, strict: true });
    dir = temp;
  }
  try {
    const root = zulipRoot(dir);
    const files: ZulipExportFiles = { realm: readJson(join(root, "realm.json")), messages: [], attachment: {}, records: [] };
    for (let n = 1; existsSync(join(root, messagesFileName(n))); n++) files.messages.push(readJson(join(root, messagesFileName(n))));
    if (existsSync(join(root, "attachment.json"))) files.attachment = readJson(join(root, "attachment.json"));
    if (existsSync(join(root, "uploads", "records.json"))) files.records = readJson(join(root, "uploads", "records.json"));
    const uploads = join(root, "uploads");
    return {
      archive: fromZulipExport(files),
      readFile: (source) => {
        const file = join(uploads, source);
        return file.startsWith(uploads + "/") && existsSync(file) ? readFileSync(file) : null;
      },
      dispose: async () => {
        if (temp) await rm(temp, { recursive: true, force: true });
      },
    };
  } catch (e) {
    if (temp) await rm(temp, { recursive: true, force: true });
    throw e;
  }
}

/** A Slack workspace export (.zip). */
export async function readSlackExport(path: string, realmName: string): Promise<ImportSource> {
  const { unzipSync } = await import("fflate");
  let entries: Record<string, Uint8Array>;
  try {
    entries = unzipSync(readFileSync(path));
  } catch {
    throw new Error(`${path} is not a zip file`);
  }
  const text = new TextDecoder();
  const json = (name: string): any[] => {
    const e = entries[name];
    if (!e) return [];
    const v = JSON.parse(text.decode(e));
    return Array.isArray(v) ? v : [];
  };
  if (!entries["users.json"] || !entries["channels.json"]) throw new Error(`${path} holds no users.json and channels.json: not a Slack export`);
  const byFolder = new Map<string, any[]>();
  for (const name of Object.keys(entries).sort()) {
    const m = /^([^/]+)\/\d{4}-\d{2}-\d{2}\.json$/.exec(name);
    if (m) pushTo(byFolder, m[1]!, ...json(name));
  }
  const files: SlackExportFiles = {
    lists: { users: json("users.json"), channels: json("channels.json"), groups: json("groups.json"), dms: json("dms.json"), mpims: json("mpims.json") },
    messages: byFolder,
    hasFile: (p) => p in entries,
  };
  const emoji = (name: string) => {
    const e = emojiByName(name);
    return e ? { name, code: e.emoji_code, type: "unicode_emoji" } : null;
  };
  return { archive: fromSlackExport(files, realmName, emoji), readFile: (p) => entries[p] ?? null, dispose: async () => {} };
}

/** Reads either kind of export, by what the path is. */
export async function readExport(path: string, realmName: string | undefined): Promise<ImportSource> {
  if (!existsSync(path)) throw new Error(`${path} does not exist`);
  if (/\.zip$/i.test(path)) return readSlackExport(path, realmName ?? "Slack import");
  return readZulipExport(path);
}

export interface ImportResult {
  realm: RealmRow;
  users: number;
  channels: number;
  messages: number;
  reactions: number;
  files: number;
}

/** Writes the archive as a new organization on `subdomain`. Users get new API keys and no password. */
export async function importArchive(app: App, src: ImportSource, o: { subdomain: string; name?: string }): Promise<ImportResult> {
  const a = src.archive;
  const name = o.name ?? a.realm.name;
  await checkNewRealm(app, { stringId: o.subdomain, name, ownerEmail: "", ownerName: "" });
  const written: string[] = [];
  try {
    return await app.tx(async (tx) => {
      const realm = await insertRealmTx(app, tx, {
        stringId: o.subdomain,
        name,
        description: a.realm.description,
        dateCreated: a.realm.dateCreated || app.now(),
      });
      const users = new Map<number, UserRow>();
      for (const u of a.users) {
        const row = await insertUserTx(
          app,
          tx,
          realm,
          { email: u.email, fullName: u.fullName, role: isRole(u.role) ? u.role : ROLE.member, isBot: u.isBot, botType: u.botType ?? undefined },
          null,
        );
        users.set(u.id, await updateUser(tx.db, row.id, { isActive: u.isActive, dateJoined: u.dateJoined || app.now(), timezone: u.timezone }));
      }
      for (const u of a.users)
        if (u.botOwnerId !== null && users.has(u.botOwnerId)) await updateUser(tx.db, users.get(u.id)!.id, { botOwnerId: users.get(u.botOwnerId)!.id });
      const user = (id: number) => {
        const found = users.get(id);
        if (!found) throw new Error(`the export refers to user ${id}, which it does not contain`);
        return found;
      };

      const channels = new Map<number, ChannelRow>();
      for (const c of a.channels) {
        const row = await insertChannelTx(app, tx, realm, c.creatorId !== null ? (users.get(c.creatorId) ?? null) : null, {
          name: c.name,
          description: c.description,
          inviteOnly: c.inviteOnly,
          isWebPublic: c.isWebPublic,
          historyPublicToSubscribers: c.historyPublicToSubscribers,
          isDefault: c.isDefault,
          settings: {},
        });
        channels.set(c.id, await updateChannel(tx.db, row.id, { dateCreated: c.dateCreated || app.now(), isArchived: c.isArchived }));
        const subs = c.subscribers.filter((s) => users.has(s.userId));
        await activateSubscriptions(
          tx.db,
          await mapInOrder(subs, async (s) => {
            const uid = user(s.userId).id;
            return { userId: uid, channelId: row.id, color: s.color ?? pickColor(await usedColors(tx.db, uid), row.id) };
          }),
        );
        for (const s of subs)
          if (!s.active || s.isMuted || s.pinToTop)
            await updateSubscription(tx.db, user(s.userId).id, row.id, { active: s.active, isMuted: s.isMuted, pinToTop: s.pinToTop });
      }

      // Uploads first, so messages link them: new path ids under this realm, the bytes written now and
      // removed again if the import fails.
      const newPaths = new Map<string, string>();
      for (const f of a.files) {
        const bytes = src.readFile(f.source);
        if (!bytes || !users.has(f.ownerId)) continue;
        const pathId = `${realm.id}/${randomToken(24)}/${safeFileName(f.name)}`;
        const path = uploadFilePath(app, pathId);
        mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
        writeFileSync(path, bytes, { mode: 0o600 });
        written.push(path);
        await insertAttachment(tx.db, {
          realmId: realm.id,
          ownerId: user(f.ownerId).id,
          pathId,
          name: f.name,
          contentType: uploadContentType(f.contentType ?? "", f.name),
          size: bytes.length,
          createTime: f.createTime || app.now(),
          unreferencedSince: app.now(), // until a message below links it
        });
        newPaths.set(f.source, pathId);
      }

      const messageIds = new Map<number, number>();
      const rewrite = linkRewriter(users, newPaths);
      for (const m of a.messages) {
        const sender = user(m.senderId);
        const channel = m.channelId !== null ? channels.get(m.channelId) : undefined;
        if (m.channelId !== null && !channel) continue; // a channel the export left out
        const dmIds = m.dmUserIds?.map((id) => user(id).id) ?? [];
        const recipientId = channel ? channel.recipientId : (await messages.dmRecipient(tx.db, realm.id, dmIds)).id;
        const content = rewrite(m.content);
        const rendered = await renderFor(app, realm, sender, content);
        const id = await messages.insertMessage(tx.db, {
          realmId: realm.id,
          senderId: sender.id,
          recipientId,
          topic: m.topic,
          content,
          renderedContent: rendered.html,
          dateSent: m.dateSent,
          client: m.client,
          hasLink: rendered.links.length > 0,
          hasImage: rendered.hasImage,
          hasAttachment: rendered.hasAttachment,
          isMeMessage: rendered.isMeMessage,
        });
        await linkAttachments(
          tx.db,
          id,
          (await findAttachmentsByPaths(tx.db, realm.id, rendered.attachmentPathIds)).map((x) => x.id),
        );
        if (m.lastEditTime !== null) await messages.updateMessage(tx.db, id, { lastEditTime: m.lastEditTime });
        messageIds.set(m.id, id);
        const dm = channel ? 0 : FLAG.is_private;
        // Without the source's read state (Slack), history arrives read for everyone who received it.
        const rows: (readonly [number, number])[] = m.flags
          ? m.flags.filter(([u]) => users.has(u)).map(([u, f]) => [user(u).id, (f & KEPT_FLAGS) | dm] as const)
          : (channel ? await subscriberIds(tx.db, channel.id) : dmIds).map(
              (u) => [u, FLAG.read | dm | (rendered.mentionedUserIds.includes(u) ? FLAG.mentioned : 0)] as const,
            );
        await messages.insertUserMessages(tx.db, id, rows);
      }

      let reactions = 0;
      const seen = new Set<string>();
      for (const r of a.reactions) {
        const messageId = messageIds.get(r.messageId);
        const u = users.get(r.userId);
        const key = `${messageId}:${u?.id}:${r.reactionType}:${r.emojiCode}`;
        if (messageId === undefined || !u || seen.has(key)) continue;
        seen.add(key);
        await insertReaction(tx.db, { messageId, userId: u.id, emojiName: r.emojiName, emojiCode: r.emojiCode, reactionType: r.reactionType });
        reactions++;
      }
      // Every subscription has the rows it should for the history just written; lazy delivery starts after it.
      for (const u of users.values()) await startDeliveries(tx.db, u.id);
      return { realm, users: users.size, channels: channels.size, messages: messageIds.size, reactions, files: newPaths.size };
    });
  } catch (e) {
    for (const path of written) rmSync(path, { force: true });
    throw e;
  }
}

/**
 * Mentions by id (`@**Name|id**`) name the source's ids, and links to uploads the source's paths:
 * both are mapped to the new ones.
 */
function linkRewriter(users: Map<number, UserRow>, paths: Map<string, string>) {
  return (content: string) => {
    let out = content.replace(/@(_?)\*\*([^*|]+)\|(\d+)\*\*/g, (whole, silent, name, id) => {
      const u = users.get(Number(id));
      return u ? `@${silent}**${name}|${u.id}**` : whole;
    });
    for (const [from, to] of paths) out = out.replaceAll(uploadUrl(from), uploadUrl(to)).replaceAll(`/user_uploads/${from}`, uploadUrl(to));
    return out;
  };
}
