// Any JSON: posted as a code block, for services with no integration of their own.
import { post, type Integration } from "./types";

export const json: Integration = {
  name: "json",
  displayName: "JSON formatter",
  description: "any JSON payload, shown as a formatted code block (for services with no integration of their own)",
  eventTypes: null,
  handle({ payload }) {
    return post("json", { topic: "JSON", content: "```json\n" + JSON.stringify(payload, null, 2) + "\n```" });
  },
};
