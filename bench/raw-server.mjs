import { readFileSync } from "node:fs";
import http from "node:http";

/**
 * A raw node:http server answering the app's JSON (captured by the benchmark into
 * BENCH_ANSWERS): the floor under any framework.
 */
const answers = JSON.parse(readFileSync(process.env.BENCH_ANSWERS ?? "answers.json", "utf8"));
const bodies = {
  "/api/config": JSON.stringify(answers.config ?? null),
  "/api/entry/nol-member-versions": JSON.stringify(answers.versions ?? null),
};

const server = http.createServer((req, res) => {
  const body = bodies[(req.url ?? "/").split("?")[0]];
  if (body === undefined) {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(200, { "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(body) });
  res.end(body);
});
server.listen(Number(process.env.PORT ?? 3997), "127.0.0.1", () => {
  console.log(`raw server on http://127.0.0.1:${server.address().port}`);
});
