import { createRepository, createRepositoryParams, getRepository, listRepositories } from "../../actions/repositories";
import { endpoint } from "../endpoint";
import { p } from "../../domain/params";

export default [
  endpoint("GET", "/ext/repositories", { params: {}, run: ({ app, realm, user }) => listRepositories(app, realm, user) }),
  endpoint("POST", "/ext/repositories", {
    params: createRepositoryParams,
    run: ({ app, realm, user, args }) => createRepository(app, realm, user, args),
  }),
  endpoint("GET", "/ext/repositories/{repository_id}", {
    params: { repository_id: p.path.int() },
    run: ({ app, realm, user, args }) => getRepository(app, realm, user, args.repository_id),
  }),
];
