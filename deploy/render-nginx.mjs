#!/usr/bin/env node
/**
 * Writes the nginx site for memberhall from deploy/nginx/memberhall.conf, the one template
 * both a deployment and the deploy test use.
 *
 *   node deploy/render-nginx.mjs --base-url https://members.example.org \
 *     --servers 127.0.0.1:3001,127.0.0.1:3002 \
 *     [--certificate FILE --certificate-key FILE] [--http-listen 80] [--https-listen 443] \
 *     [--out /etc/nginx/sites-available/memberhall]
 *
 * The certificate defaults to certbot's files for the site's host name.
 */
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";

const TEMPLATE = path.join(import.meta.dirname, "nginx/memberhall.conf");

/** A server counts as failed after this many errors or timeouts within FAIL_TIMEOUT seconds, and is left out that long. */
const MAX_FAILS = 3;
const FAIL_TIMEOUT_SECONDS = 5;

const { values } = parseArgs({
  options: {
    "base-url": { type: "string" },
    servers: { type: "string" },
    certificate: { type: "string" },
    "certificate-key": { type: "string" },
    "http-listen": { type: "string", default: "80" },
    "https-listen": { type: "string", default: "443" },
    out: { type: "string" },
  },
});

function fail(message) {
  process.stderr.write(`render-nginx: ${message}\n`);
  process.exit(64);
}

const baseUrl = values["base-url"] ? URL.parse(values["base-url"]) : null;
if (!baseUrl || baseUrl.protocol !== "https:") fail("--base-url must be the site's https:// address (BASE_URL)");
const servers = (values.servers ?? "").split(",").filter(Boolean);
if (servers.length === 0) fail("--servers must list the app servers, such as 127.0.0.1:3001,127.0.0.1:3002");
for (const server of servers) if (!/^[\w.-]+:\d+$/.test(server)) fail(`${server} is not host:port`);

const host = baseUrl.hostname;
const filled = {
  UPSTREAM_SERVERS: servers
    .map((server) => `    server ${server} max_fails=${MAX_FAILS} fail_timeout=${FAIL_TIMEOUT_SECONDS}s;`)
    .join("\n"),
  SERVER_NAME: host,
  PUBLIC_ORIGIN: baseUrl.origin,
  HTTP_LISTEN: values["http-listen"],
  HTTPS_LISTEN: values["https-listen"],
  TLS_CERTIFICATE: values.certificate ?? `/etc/letsencrypt/live/${host}/fullchain.pem`,
  TLS_CERTIFICATE_KEY: values["certificate-key"] ?? `/etc/letsencrypt/live/${host}/privkey.pem`,
};

const rendered = readFileSync(TEMPLATE, "utf8").replace(/\{\{(\w+)\}\}/g, (whole, name) => {
  if (!(name in filled)) fail(`the template names ${whole}, which nothing fills`);
  return filled[name];
});

if (values.out) writeFileSync(values.out, rendered);
else process.stdout.write(rendered);
