import { updateRealmSettings } from "../../actions/realm-settings";
import { REALM_SETTING_NAMES, REALM_SETTINGS, type SettingKind } from "../../domain/realm-settings";
import { endpoint } from "../endpoint";
import { p, Param, t } from "../../domain/params";
import { groupSettingChange } from "../../actions/user-groups";

/** The request parameter for one setting of a property table (realm or user settings), optional. */
export function settingParam(kind: SettingKind): Param<unknown> {
  switch (kind.t) {
    case "bool":
      return p.bool().optional();
    case "int": {
      if (kind.values) return p.intEnum(kind.values).optional();
      const n = t.int({ min: kind.min, max: kind.max });
      if (!kind.special) return p.json(kind.nullable ? t.nullable(n) : n).optional();
      // A special word ("unlimited") may come JSON-encoded or bare, as Zulip's clients differ.
      const special = kind.special;
      const json = p.json(t.union<unknown>(n, t.enum(Object.keys(special))));
      return new Param((raw, name) => (typeof raw === "string" && raw in special ? raw : json.parse(raw, name)), json.describe).optional();
    }
    case "str":
      return kind.values ? p.enum(kind.values).optional() : p.str({ max: kind.max, nonEmpty: kind.nonEmpty }).optional();
    case "group":
      return p.json(groupSettingChange).optional();
  }
}

export default [
  endpoint("PATCH", "/realm", {
    params: Object.fromEntries(REALM_SETTING_NAMES.map((n) => [n, settingParam(REALM_SETTINGS[n].kind)])),
    run: ({ app, realm, user, args }) => updateRealmSettings(app, realm, user, args),
  }),
];
