import { devFetchApiKey, fetchApiKey } from "../../actions/auth";
import { endpoint } from "../endpoint";
import { p } from "../../domain/params";

export default [
  endpoint("POST", "/fetch_api_key", {
    auth: "none",
    params: { username: p.str(), password: p.str() },
    run: ({ app, realm, args, ip }) => fetchApiKey(app, realm, args.username, args.password, () => ip),
  }),
  endpoint("POST", "/dev_fetch_api_key", {
    auth: "none",
    params: { username: p.str() },
    run: ({ app, realm, args, ip }) => devFetchApiKey(app, realm, args.username, () => ip),
  }),
];
