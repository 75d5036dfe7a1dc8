import { deleteAvatar, uploadAvatar } from "../../actions/avatars";
import { endpoint } from "../endpoint";

export default [
  endpoint("POST", "/users/me/avatar", { body: "upload", params: {}, run: ({ app, realm, user, files }) => uploadAvatar(app, realm, user, files) }),
  endpoint("DELETE", "/users/me/avatar", { params: {}, run: ({ app, realm, user }) => deleteAvatar(app, realm, user) }),
];
