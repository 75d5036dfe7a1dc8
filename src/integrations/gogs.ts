// Gogs: Gitea's ancestor, with the same payloads under X-Gogs-Event. https://gogs.io/docs/features/webhook
import { forgeIntegration } from "./gitea";

export const gogs = forgeIntegration({
  name: "gogs",
  displayName: "Gogs",
  description: "pushes, branches, tags, pull requests, issues, comments and releases from Gogs",
  headers: ["x-gogs-event"],
});
