import { addSecret, addSecretParams, deleteSecret, listSecrets, updateSecret, updateSecretParams } from "../../actions/secrets";
import { endpoint } from "../endpoint";
import { p } from "../../domain/params";

export default [
  endpoint("GET", "/ext/secrets", { params: {}, run: async ({ app, realm, user }) => await listSecrets(app, realm, user) }),
  endpoint("POST", "/ext/secrets", {
    params: addSecretParams,
    run: async ({ app, realm, user, args }) => await addSecret(app, realm, user, args),
  }),
  endpoint("PATCH", "/ext/secrets/{name}", {
    params: { name: p.path.str(), ...updateSecretParams },
    run: async ({ app, realm, user, args }) => await updateSecret(app, realm, user, args.name, args),
  }),
  endpoint("DELETE", "/ext/secrets/{name}", {
    params: { name: p.path.str() },
    run: async ({ app, realm, user, args }) => await deleteSecret(app, realm, user, args.name),
  }),
];
