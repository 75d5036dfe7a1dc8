import { serverSettings } from "../../actions/server";
import { endpoint } from "../endpoint";

export default [
  endpoint("GET", "/server_settings", {
    auth: "none",
    params: {},
    run: async ({ app, realm }) => await serverSettings(app, realm),
  }),
];
