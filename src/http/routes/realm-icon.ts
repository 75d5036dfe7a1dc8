import { deleteRealmIcon, uploadRealmIcon } from "../../actions/realm-icon";
import { endpoint } from "../endpoint";

export default [
  endpoint("POST", "/realm/icon", { body: "upload", params: {}, run: ({ app, realm, user, files }) => uploadRealmIcon(app, realm, user, files) }),
  endpoint("DELETE", "/realm/icon", { params: {}, run: ({ app, realm, user }) => deleteRealmIcon(app, realm, user) }),
];
