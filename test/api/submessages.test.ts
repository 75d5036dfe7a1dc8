// Zulip's message widgets: a message starting with /poll or /todo carries the widget submessage
// Zulip's server attaches (zerver/lib/widget.py), POST /submessage adds votes, options and tasks, and
// `submessage` events reach everyone who has the message. Checked the way zulip-terminal reads them
// (zulipterminal/widget.py: find_widget_type, process_poll_widget, process_todo_widget;
// zulipterminal/model.py: _handle_submessage_event appends the event to message["submessages"]).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { expectError, ok, type Client } from "../helpers/client";
import { drain } from "../helpers/events";
import { startServer, type TestServer } from "../helpers/server";

let s: TestServer;
let ann: Client;
let bob: Client;
let outsider: Client;

beforeAll(async () => {
  s = await startServer();
  ann = await s.newUser({ name: "Ann" });
  bob = await s.newUser({ name: "Bob" });
  outsider = await s.newUser({ name: "Out" });
  await ok(s.owner.post("/channels/create", { name: "votes", subscribers: [ann.userId, bob.userId] }));
});
afterAll(() => s.stop());

type Sub = { msg_type: string; content: string; sender_id: number };

/** zulip-terminal's find_widget_type: the first submessage's widget_type. */
const widgetType = (subs: Sub[]) => (subs.length ? (JSON.parse(subs[0]!.content).widget_type ?? "unknown") : "unknown");

/** What zulip-terminal's process_poll_widget shows: the question and each option's voters. */
function poll(subs: Sub[]) {
  let question = "";
  const options = new Map<string, { option: string; votes: number[] }>();
  for (const sm of subs) {
    const w = JSON.parse(sm.content);
    if (w.widget_type === "poll") {
      question = w.extra_data.question;
      w.extra_data.options.forEach((o: string, i: number) => options.set(`canned,${i}`, { option: o, votes: [] }));
    } else if (w.type === "question") question = w.question;
    else if (w.type === "new_option") options.set(`${sm.sender_id},${w.idx}`, { option: w.option, votes: [] });
    else if (w.type === "vote") {
      const o = options.get(w.key);
      if (o && w.vote === 1 && !o.votes.includes(sm.sender_id)) o.votes.push(sm.sender_id);
      if (o && w.vote === -1) o.votes = o.votes.filter((v) => v !== sm.sender_id);
    }
  }
  return { question, options: Object.fromEntries(options) };
}

/** What zulip-terminal's process_todo_widget shows: the title and each task's state. */
function todo(subs: Sub[]) {
  let title = "";
  const tasks = new Map<string, { task: string; desc: string; completed: boolean }>();
  for (const sm of subs) {
    const w = JSON.parse(sm.content);
    if (w.widget_type === "todo") {
      title = w.extra_data.task_list_title || "Task list";
      w.extra_data.tasks.forEach((t: any, i: number) => tasks.set(`${i},canned`, { task: t.task, desc: t.desc, completed: false }));
    } else if (w.type === "new_task") tasks.set(`${w.key},${sm.sender_id}`, { task: w.task, desc: w.desc, completed: false });
    else if (w.type === "strike" && tasks.has(w.key)) tasks.get(w.key)!.completed = !tasks.get(w.key)!.completed;
    else if (w.type === "new_task_list_title") title = w.title;
  }
  return { title, tasks: Object.fromEntries(tasks) };
}

const send = async (c: Client, content: string) => (await ok(c.post("/messages", { type: "stream", to: "votes", topic: "widgets", content }))).id as number;
const fetchOne = async (c: Client, id: number) => (await ok(c.get(`/messages/${id}`))).message;

describe("poll and todo widgets", () => {
  test("/poll: the question and options become the widget; votes and new options arrive as submessage events", async () => {
    const q = await ok(bob.post("/register", { event_types: ["message", "submessage"] }));
    const id = await send(ann, "/poll Lunch?\n- Pizza\n* Salad\n\n  Soup");
    const [msgEvent] = await drain(bob, q);
    // The message event already carries the widget, as Zulip's does.
    expect(msgEvent.message.submessages).toHaveLength(1);
    expect(widgetType(msgEvent.message.submessages)).toBe("poll");
    expect(JSON.parse(msgEvent.message.submessages[0].content)).toEqual({
      widget_type: "poll",
      extra_data: { question: "Lunch?", options: ["Pizza", "Salad", "Soup"] },
    });

    await ok(bob.post("/submessage", { message_id: id, msg_type: "widget", content: JSON.stringify({ type: "vote", key: "canned,1", vote: 1 }) }));
    await ok(bob.post("/submessage", { message_id: id, msg_type: "widget", content: JSON.stringify({ type: "new_option", idx: 1, option: "Tacos" }) }));
    await ok(ann.post("/submessage", { message_id: id, msg_type: "widget", content: JSON.stringify({ type: "vote", key: `${bob.userId},1`, vote: 1 }) }));
    await ok(ann.post("/submessage", { message_id: id, msg_type: "widget", content: JSON.stringify({ type: "question", question: "Lunch today?" }) }));
    const events = (await drain(bob, q)).filter((e) => e.type === "submessage");
    expect(events).toHaveLength(4);
    expect(events[0]).toMatchObject({ type: "submessage", msg_type: "widget", message_id: id, sender_id: bob.userId });
    expect(typeof events[0].submessage_id).toBe("number");

    // A client that applies the events (zulip-terminal's model) and one that fetches agree.
    const applied = [...msgEvent.message.submessages, ...events];
    const fetched = (await fetchOne(bob, id)).submessages;
    expect(fetched.map((x: any) => x.id)).toEqual([msgEvent.message.submessages[0].id, ...events.map((e) => e.submessage_id)]);
    const expected: ReturnType<typeof poll> = {
      question: "Lunch today?",
      options: {
        "canned,0": { option: "Pizza", votes: [] },
        "canned,1": { option: "Salad", votes: [bob.userId!] },
        "canned,2": { option: "Soup", votes: [] },
        [`${bob.userId},1`]: { option: "Tacos", votes: [ann.userId!] },
      },
    };
    expect(poll(applied)).toEqual(expected);
    expect(poll(fetched)).toEqual(expected);
  });

  test("/todo: title and tasks (with descriptions); new tasks and strikes", async () => {
    const id = await send(ann, "/todo Release\nTag: git tag\n- Announce");
    await ok(
      bob.post("/submessage", {
        message_id: id,
        msg_type: "widget",
        content: JSON.stringify({ type: "new_task", key: 2, task: "Party", desc: "", completed: false }),
      }),
    );
    await ok(bob.post("/submessage", { message_id: id, msg_type: "widget", content: JSON.stringify({ type: "strike", key: "0,canned" }) }));
    const m = await fetchOne(ann, id);
    expect(widgetType(m.submessages)).toBe("todo");
    expect(todo(m.submessages)).toEqual({
      title: "Release",
      tasks: {
        "0,canned": { task: "Tag", desc: "git tag", completed: true },
        "1,canned": { task: "Announce", desc: "", completed: false },
        [`2,${bob.userId}`]: { task: "Party", desc: "", completed: false },
      },
    });
    // A bare /todo: the web app's default title, no tasks.
    expect(todo((await fetchOne(ann, await send(ann, "/todo"))).submessages)).toEqual({ title: "Task list", tasks: {} });
  });

  test("plain messages have no submessages; bad submessages are refused and change nothing", async () => {
    const plain = await send(ann, "no widget /poll here");
    expect((await fetchOne(ann, plain)).submessages).toEqual([]);
    // Only the sender may attach the first submessage.
    await expectError(
      bob.post("/submessage", { message_id: plain, msg_type: "widget", content: "{}" }),
      400,
      "BAD_REQUEST",
      "You cannot attach a submessage to this message.",
    );
    const id = await send(ann, "/poll Q\nA");
    await expectError(bob.post("/submessage", { message_id: id, msg_type: "widget", content: "not json" }), 400, "BAD_REQUEST", "Invalid json for submessage");
    await expectError(
      bob.post("/submessage", { message_id: id, msg_type: "widget", content: JSON.stringify({ type: "question", question: "Mine now" }) }),
      400,
      "BAD_REQUEST",
      "You can't edit a question unless you are the author.",
    );
    await expectError(
      bob.post("/submessage", { message_id: id, msg_type: "widget", content: JSON.stringify({ type: "explode" }) }),
      400,
      "BAD_REQUEST",
      "Unknown type for poll data: explode",
    );
    await expectError(
      bob.post("/submessage", { message_id: id, msg_type: "widget", content: JSON.stringify({ type: "vote", key: 3, vote: 1 }) }),
      400,
      "BAD_REQUEST",
      'data["key"] is not a string',
    );
    await expectError(outsider.post("/submessage", { message_id: id + 1000, msg_type: "widget", content: "{}" }), 400, "BAD_REQUEST", "Invalid message(s)");
    await expectError(bob.post("/submessage", { msg_type: "widget", content: "{}" }), 400, "REQUEST_VARIABLE_MISSING", "Missing 'message_id' argument");
    expect((await fetchOne(ann, id)).submessages).toHaveLength(1);
  });

  test("direct messages carry widgets too, and a widget message can be deleted", async () => {
    const { id } = await ok(ann.post("/messages", { type: "direct", to: [bob.userId], content: "/poll Coffee?\nYes\nNo" }));
    await ok(bob.post("/submessage", { message_id: id, msg_type: "widget", content: JSON.stringify({ type: "vote", key: "canned,0", vote: 1 }) }));
    expect(poll((await fetchOne(ann, id)).submessages).options["canned,0"]!.votes).toEqual([bob.userId!]);
    await ok(ann.delete(`/messages/${id}`));
    await expectError(bob.post("/submessage", { message_id: id, msg_type: "widget", content: "{}" }), 400, "BAD_REQUEST", "Invalid message(s)");
  });
});
