import https from "node:https";

export type Answer = {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  ms: number;
};

/**
 * HTTPS to nginx as a browser would reach it: trusting the test's certificate authority, and
 * from the loopback address given (a client other than nginx's own 127.0.0.1).
 */
export function httpsClient(origin: string, ca: Buffer, localAddress = "127.0.0.1") {
  const agent = new https.Agent({ keepAlive: true, ca, localAddress, maxSockets: 16 });
  let resent = 0;
  const send = (method: string, pathname: string, options: RequestOptions, fresh: boolean): Promise<Answer> => {
    const body = options.form ? new URLSearchParams(options.form).toString() : undefined;
    const started = performance.now();
    return new Promise((resolve, reject) => {
      const req = https.request(
        new URL(pathname, origin),
        {
          method,
          ...(fresh ? { agent: false, ca, localAddress } : { agent }),
          headers: {
            ...(options.cookie ? { cookie: options.cookie } : {}),
            ...(body !== undefined
              ? {
                  origin,
                  "content-type": "application/x-www-form-urlencoded",
                  "content-length": Buffer.byteLength(body),
                }
              : {}),
            ...options.headers,
          },
        },
        (res) => {
          let text = "";
          res.setEncoding("utf8");
          res.on("data", (chunk) => (text += chunk));
          res.on("end", () =>
            resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text, ms: performance.now() - started }),
          );
          res.on("error", reject);
        },
      );
      req.setTimeout(options.timeoutMs ?? 20_000, () =>
        req.destroy(new Error(`${method} ${pathname}: no answer in time`)),
      );
      req.on("error", (error: NodeJS.ErrnoException) => {
        // A kept-alive connection closed by nginx as the request went out (nginx closes its idle
        // ones when it reloads): nothing was answered, and a browser sends the request again on
        // a new connection, as Node's documentation of `reusedSocket` shows a client doing.
        if (!fresh && req.reusedSocket && error.code === "ECONNRESET") {
          resent += 1;
          resolve(send(method, pathname, options, true));
        } else reject(error);
      });
      req.end(body);
    });
  };
  return {
    request: (method: string, pathname: string, options: RequestOptions = {}) => send(method, pathname, options, false),
    /** Requests sent again after a kept-alive connection closed under them. */
    resent: () => resent,
    close: () => agent.destroy(),
  };
}

type RequestOptions = {
  cookie?: string;
  form?: Record<string, string>;
  headers?: Record<string, string>;
  timeoutMs?: number;
};

export const setCookies = (answer: Answer): string[] => {
  const value = answer.headers["set-cookie"];
  return Array.isArray(value) ? value : value ? [value] : [];
};

/** The session cookie a login answer set (`name=value`), whatever its prefix. */
export function sessionCookie(answer: Answer): string {
  const cookie = setCookies(answer).find((c) => /^(__Host-)?mh_session=/.test(c));
  if (!cookie) throw new Error(`no session cookie in the login's answer (${answer.status})`);
  return cookie.split(";")[0]!;
}
