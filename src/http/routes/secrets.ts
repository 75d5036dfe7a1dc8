import { addSecret, addSecretParams, deleteSecret, listSecrets, updateSecret, updateSecretParams } from "../../actions/secrets";
import { endpoint } from "../endpoint";
import { p } from "../../domain/params";

export default [
  endpoint("GET", "/ext/secrets", { params: {}, run: ({ app, realm, user }) => listSecrets(app, realm, user) }),
  endpoint("POST", "/ext/secrets", {
    params: addSecretParams,
    run: ({ app, realm, user, args }) => addSecret(app, realm, user, args),
  }),
  endpoint("PATCH", "/ext/secrets/{name}", {
    params: { name: p.path.str(), ...updateSecretParams },
    run: ({ app, realm, user, args }) => updateSecret(app, realm, user, args.name, args),
  }),
  endpoint("DELETE", "/ext/secrets/{name}", {
    params: { name: p.path.str() },
    run: ({ app, realm, user, args }) => deleteSecret(app, realm, user, args.name),
  }),
];
