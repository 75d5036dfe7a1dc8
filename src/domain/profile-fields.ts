import type { ProfileFieldRow } from "../db/schema";
import { fieldDataOrderNotInteger, fieldDataTextCannotBeBlank, fieldMustHaveLeastOne, invalidParam, malformedUrlPattern, subtypeRequired } from "./errors";

// Custom profile field types, with Zulip's ids and names.
export const PROFILE_FIELD_TYPES = {
  SHORT_TEXT: { id: 1, name: "Text (short)" },
  LONG_TEXT: { id: 2, name: "Text (long)" },
  SELECT: { id: 3, name: "List of options" },
  DATE: { id: 4, name: "Date" },
  URL: { id: 5, name: "Link" },
  USER: { id: 6, name: "Users" },
  EXTERNAL_ACCOUNT: { id: 7, name: "External account" },
  PRONOUNS: { id: 8, name: "Pronouns" },
} as const;
const T = Object.fromEntries(Object.entries(PROFILE_FIELD_TYPES).map(([k, v]) => [k, v.id])) as Record<keyof typeof PROFILE_FIELD_TYPES, number>;
export const PROFILE_FIELD_TYPE_IDS: readonly number[] = Object.values(T);

export const MAX_FIELD_NAME_LENGTH = 40;
export const MAX_FIELD_HINT_LENGTH = 80;
export const MAX_SHORT_TEXT_LENGTH = 50;
export const MAX_LONG_TEXT_LENGTH = 500;

export const toApiProfileField = (f: ProfileFieldRow) => ({
  id: f.id,
  name: f.name,
  type: f.type,
  hint: f.hint,
  field_data: f.fieldData,
  order: f.order,
  display_in_profile_summary: f.displayInProfileSummary,
  required: f.required,
  editable_by_user: f.editableByUser,
});

/** field_data as stored (JSON text): select fields need their options, external accounts their subtype. */
export function checkFieldData(type: number, data: Record<string, unknown> | undefined): string {
  if (type === T.SELECT) {
    if (!data || !Object.keys(data).length) throw fieldMustHaveLeastOne();
    for (const [key, opt] of Object.entries(data)) {
      const o = opt as { text?: unknown; order?: unknown } | null;
      if (!o || typeof o.text !== "string" || !o.text.trim()) throw fieldDataTextCannotBeBlank(key);
      if (typeof o.order !== "string" || !/^\d+$/.test(o.order)) throw fieldDataOrderNotInteger(key);
    }
    return JSON.stringify(data);
  }
  if (type === T.EXTERNAL_ACCOUNT) {
    const subtype = data?.subtype;
    if (typeof subtype !== "string" || !subtype) throw subtypeRequired();
    if (subtype === "custom" && (typeof data?.url_pattern !== "string" || !String(data.url_pattern).includes("%(username)s"))) throw malformedUrlPattern();
    return JSON.stringify(data);
  }
  return "";
}

/**
 * A user's value for a field, as stored (a string; user fields store a JSON list of ids), or Zulip's
 * error. `userExists` says whether an id is a user of the realm.
 */
export async function checkFieldValue(f: ProfileFieldRow, value: unknown, userExists: (id: number) => Promise<boolean>): Promise<string> {
  const bad = (why: string) => invalidParam(why);
  if (f.type === T.USER) {
    if (!Array.isArray(value) || value.some((v) => !Number.isInteger(v))) throw bad(`'${f.name}' is not a list`);
    for (const id of value as number[]) if (!(await userExists(id))) throw bad(`Invalid user ID: ${id}`);
    return JSON.stringify([...new Set(value as number[])]);
  }
  if (typeof value !== "string") throw bad(`'${f.name}' is not a string`);
  switch (f.type) {
    case T.SHORT_TEXT:
    case T.PRONOUNS:
      if ([...value].length > MAX_SHORT_TEXT_LENGTH) throw bad(`${f.name} is too long (limit: ${MAX_SHORT_TEXT_LENGTH} characters)`);
      break;
    case T.LONG_TEXT:
      if ([...value].length > MAX_LONG_TEXT_LENGTH) throw bad(`${f.name} is too long (limit: ${MAX_LONG_TEXT_LENGTH} characters)`);
      break;
    case T.SELECT: {
      const options = JSON.parse(f.fieldData || "{}") as Record<string, unknown>;
      if (!(value in options)) throw bad(`'${value}' is not a valid choice for '${f.name}'.`);
      break;
    }
    case T.DATE:
      if (!/^\d{4}-\d{2}-\d{2}$/.test(value) || Number.isNaN(Date.parse(value))) throw bad(`${f.name} is not a date`);
      break;
    case T.URL:
      if (!/^https?:\/\/\S+$/i.test(value)) throw bad(`${f.name} is not a URL`);
      break;
  }
  return value;
}
