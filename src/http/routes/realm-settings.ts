import { realmSettingsParams, updateRealmSettings } from "../../actions/realm-settings";
import { endpoint } from "../endpoint";

export default [
  endpoint("PATCH", "/realm", {
    params: realmSettingsParams,
    run: ({ app, realm, user, args }) => updateRealmSettings(app, realm, user, args),
  }),
];
