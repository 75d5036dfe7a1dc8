import { realmSettingsParams, updateRealmSettings } from "../../actions/realm-settings";
import { endpoint } from "../endpoint";

export default [
  endpoint("PATCH", "/realm", {
    params: realmSettingsParams,
    run: async ({ app, realm, user, args }) => await updateRealmSettings(app, realm, user, args),
  }),
];
