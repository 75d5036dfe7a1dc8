import { expect, test } from "bun:test";
import { run } from "./run";
import { SHIPPED_INTEGRATIONS } from "../helpers/integrations";

test("confab integrations lists every integration with the URL to give its service", async () => {
  const r = await run(["integrations", "--json"], { env: { CONFAB_EXTERNAL_URL: "https://chat.example.com" } });
  expect(r.code).toBe(0);
  const list = JSON.parse(r.stdout);
  expect(list.map((i: any) => i.name)).toEqual(SHIPPED_INTEGRATIONS);
  expect(list.find((i: any) => i.name === "gitea")).toEqual({
    name: "gitea",
    display_name: "Gitea",
    url: "https://chat.example.com/api/v1/external/gitea?api_key={api_key}&stream={channel}&topic={topic}",
    handles: expect.stringContaining("Forgejo"),
  });
  const text = await run(["integrations"], { env: { CONFAB_EXTERNAL_URL: "https://chat.example.com" } });
  expect(text.stdout.split("\n")[2]).toStartWith("github\thttps://chat.example.com/api/v1/external/github?api_key=");
});
