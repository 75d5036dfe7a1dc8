import { serverSettings } from "../../actions/server";
import { endpoint } from "../endpoint";

export default [
  endpoint("GET", "/server_settings", {
    auth: "none",
    params: {},
    run: ({ app, realm }) => serverSettings(app, realm),
  }),
];
