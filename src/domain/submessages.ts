// Zulip's message widgets (/poll, /todo): the widget a message's content starts, as the submessage
// Zulip's server attaches when the message is sent, and the checks on the submessages clients add.
import { cantEditQuestionUnlessAuthor, dataNotDict, invalidJsonSubmessage, invalidParam, invalidPollData, unknownTypeData } from "./errors";

export type WidgetType = "poll" | "todo";
export interface WidgetContent {
  widget_type: WidgetType;
  extra_data: Record<string, unknown>;
}

/** A list item's text: its line without a leading "-" or "*" bullet. */
const item = (line: string) => line.trim().replace(/^[-*]?\s*/, "");

/**
 * The widget a message starts: its first word is `/poll` or `/todo`; the rest of that line is the
 * question (or the task list's title), each further non-empty line an option (a task, with an
 * optional description after the first ": ").
 */
export function widgetOf(content: string): WidgetContent | null {
  const first = /^\S*/.exec(content)![0];
  if (first !== "/poll" && first !== "/todo") return null;
  const lines = content.slice(first.length).split(/\r\n|\r|\n/);
  const heading = lines[0] ? lines.shift()!.trim() : "";
  const items = lines.map(item).filter((l) => l.length > 0);
  if (first === "/poll") return { widget_type: "poll", extra_data: { question: heading, options: items } };
  const tasks = items.map((l) => {
    const at = l.indexOf(": ");
    return at < 0 ? { task: l.trim(), desc: "" } : { task: l.slice(0, at).trim(), desc: l.slice(at + 2).trim() };
  });
  return { widget_type: "todo", extra_data: { task_list_title: heading, tasks } };
}

type Fields = Record<string, "string" | "integer" | "boolean">;

function checkFields(data: Record<string, unknown>, fields: Fields) {
  for (const [k, type] of Object.entries(fields)) {
    const v = data[k];
    const ok = type === "integer" ? Number.isInteger(v) : typeof v === type;
    if (!ok) throw invalidParam(v === undefined ? `data["${k}"] field is missing` : `data["${k}"] is not ${type === "integer" ? "an integer" : `a ${type}`}`);
  }
}

const POLL_FIELDS: Record<string, Fields> = {
  vote: { key: "string", vote: "integer" },
  question: { question: "string" },
  new_option: { idx: "integer", option: "string" },
};
/** The to-do list widget's submessages. */
const TASK_LIST_FIELDS: Record<string, Fields> = {
  new_task: { key: "integer", task: "string", desc: "string", completed: "boolean" },
  strike: { key: "string" },
  new_task_list_title: { title: "string" },
};

/** A submessage's content for a widget message, checked as Zulip checks poll and todo data. */
export function checkWidgetData(widget: WidgetType | null, content: string, isAuthor: boolean) {
  let data: unknown;
  try {
    data = JSON.parse(content);
  } catch {
    throw invalidJsonSubmessage();
  }
  if (!widget) return;
  if (typeof data !== "object" || data === null || Array.isArray(data)) throw dataNotDict();
  const d = data as Record<string, unknown>;
  const table = widget === "poll" ? POLL_FIELDS : TASK_LIST_FIELDS;
  const fields = typeof d.type === "string" ? table[d.type] : undefined;
  if (!fields) throw unknownTypeData(widget, String(d.type));
  checkFields(d, fields);
  if (widget === "poll" && d.type === "vote" && d.vote !== 1 && d.vote !== -1) throw invalidPollData();
  if (widget === "poll" && d.type === "question" && !isAuthor) throw cantEditQuestionUnlessAuthor();
}

/** The widget a message's first widget submessage declared, if any. */
export function widgetTypeOf(firstWidgetContent: string | undefined): WidgetType | null {
  if (firstWidgetContent === undefined) return null;
  try {
    const t = JSON.parse(firstWidgetContent)?.widget_type;
    return t === "poll" || t === "todo" ? t : null;
  } catch {
    return null;
  }
}
