// The yardstick for request throughput: a bare Bun.serve answering one fixed JSON body, the same bytes
// confab's GET /api/v1/users/me returns. `bun bench/lib/baseline-server.ts PORT BODY_FILE`.
const [port, bodyFile] = process.argv.slice(2);
const body = await Bun.file(bodyFile!).text();
Bun.serve({
  hostname: "127.0.0.1",
  port: Number(port),
  fetch: () => new Response(body, { headers: { "content-type": "application/json" } }),
});
console.log("ready");

export {}; // a module, for top-level await
