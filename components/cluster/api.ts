/**
 * Reads of a cluster's API, and a command run in a pod (`pods/exec` over a WebSocket), for the
 * dynamic providers that wait on a cluster. Only Node built-ins: this module is serialised into
 * the dynamic provider process. Nothing here throws with, or returns, a credential.
 */
import type { KubeconfigCredentials } from "../kubeconfig";

export interface ApiAnswer {
  status?: number;
  body?: unknown;
  error?: string;
}

/**
 * A GET of the API, or a POST of `body` (as JSON) when one is given; never throws (an error is
 * returned as text, without credentials). Any 2xx answer counts as 200.
 */
export function apiRequest(k: KubeconfigCredentials, apiPath: string, body?: unknown): Promise<ApiAnswer> {
  return apiCall(k, body === undefined ? "GET" : "POST", apiPath, body);
}

/**
 * One call of the API: `method` on `apiPath`, with `body` as JSON (a merge patch for PATCH); never
 * throws (an error is returned as text, without credentials). Any 2xx answer counts as 200.
 */
export function apiCall(
  k: KubeconfigCredentials,
  method: "GET" | "POST" | "PATCH" | "DELETE",
  apiPath: string,
  body?: unknown,
): Promise<ApiAnswer> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const https: typeof import("https") = require("https");
  const url = new URL(apiPath, k.server);
  return new Promise((resolve) => {
    const headers: Record<string, string> = { Accept: "application/json" };
    if (k.token) headers.Authorization = `Bearer ${k.token}`;
    if (body !== undefined)
      headers["Content-Type"] = method === "PATCH" ? "application/merge-patch+json" : "application/json";
    const req = https.request(
      url,
      {
        method,
        headers,
        ca: k.ca,
        cert: k.cert,
        key: k.key,
        rejectUnauthorized: !k.insecure,
        timeout: 10_000,
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8").on("data", (d: string) => {
          text += d;
        });
        res.on("end", () => {
          const code = res.statusCode ?? 0;
          if (code < 200 || code > 299) return resolve({ status: code });
          const status = 200;
          try {
            resolve({ status, body: JSON.parse(text) as unknown });
          } catch {
            resolve({ error: `an unreadable answer from ${k.server}` });
          }
        });
      },
    );
    req.on("timeout", () => req.destroy(new Error("no answer within 10 s")));
    req.on("error", (err: Error) => resolve({ error: `${k.server}: ${err.message}` }));
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

/** One WebSocket frame as the API server sends it (unmasked). */
export interface WsFrame {
  /** 1 text, 2 binary, 8 close, 9 ping, 10 pong. */
  opcode: number;
  payload: Buffer;
}

/**
 * The complete frames at the start of `data` and the bytes after them (an incomplete frame, kept
 * for the next read). Server frames are never masked (RFC 6455 §5.1); a masked one is unmasked.
 */
export function parseWsFrames(data: Buffer): { frames: WsFrame[]; rest: Buffer } {
  const frames: WsFrame[] = [];
  let at = 0;
  for (;;) {
    if (data.length - at < 2) break;
    const opcode = data[at] & 0x0f;
    const masked = (data[at + 1] & 0x80) !== 0;
    let length = data[at + 1] & 0x7f;
    let header = 2;
    if (length === 126) {
      if (data.length - at < 4) break;
      length = data.readUInt16BE(at + 2);
      header = 4;
    } else if (length === 127) {
      if (data.length - at < 10) break;
      length = Number(data.readBigUInt64BE(at + 2));
      header = 10;
    }
    const maskAt = at + header;
    if (masked) header += 4;
    if (data.length - at < header + length) break;
    const payload = Buffer.from(data.subarray(at + header, at + header + length));
    if (masked) for (let i = 0; i < payload.length; i++) payload[i] ^= data[maskAt + (i % 4)];
    frames.push({ opcode, payload });
    at += header + length;
  }
  return { frames, rest: data.subarray(at) };
}

/** What a command run in a pod wrote, and how it ended (channel 3's status, when it sent one). */
export interface ExecResult {
  stdout: string;
  stderr: string;
  /** The Status object of channel 3 (`status: "Success"` or `"Failure"` with a message). */
  status?: { status?: string; message?: string };
  /** Why the exec could not run (no connection, refused upgrade, timeout). */
  error?: string;
}

/** The `pods/exec` path of a command (each argument its own `command` parameter). */
export function execPath(namespace: string, pod: string, container: string, command: string[]): string {
  const q = new URLSearchParams();
  for (const c of command) q.append("command", c);
  q.append("container", container);
  q.append("stdout", "true");
  q.append("stderr", "true");
  return `/api/v1/namespaces/${encodeURIComponent(namespace)}/pods/${encodeURIComponent(pod)}/exec?${q.toString()}`;
}

/** Sorts the frames' payloads of the channel protocol (`v4.channel.k8s.io`) into an ExecResult. */
export function execResultOf(frames: WsFrame[]): ExecResult {
  const out: ExecResult = { stdout: "", stderr: "" };
  let status = "";
  for (const f of frames) {
    if ((f.opcode !== 1 && f.opcode !== 2) || f.payload.length === 0) continue;
    const text = f.payload.subarray(1).toString("utf8");
    if (f.payload[0] === 1) out.stdout += text;
    else if (f.payload[0] === 2) out.stderr += text;
    else if (f.payload[0] === 3) status += text;
  }
  if (status) {
    try {
      out.status = JSON.parse(status) as ExecResult["status"];
    } catch {
      out.status = { message: status };
    }
  }
  return out;
}

/**
 * Runs `command` in a container of a pod, as `kubectl exec` does, and returns what it wrote; never
 * throws. Fails after `timeoutMs`.
 */
export function execInPod(
  k: KubeconfigCredentials,
  target: { namespace: string; pod: string; container: string },
  command: string[],
  timeoutMs = 30_000,
): Promise<ExecResult> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const https: typeof import("https") = require("https");
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const crypto: typeof import("crypto") = require("crypto");
  const url = new URL(execPath(target.namespace, target.pod, target.container, command), k.server);
  const where = `${target.namespace}/${target.pod} (${target.container})`;
  return new Promise((resolve) => {
    let done = false;
    // Declared before the closures that use it (the serialiser of dynamic providers needs that).
    let timer: ReturnType<typeof setTimeout> | undefined = undefined;
    const finish = (r: ExecResult) => {
      if (done) return;
      done = true;
      if (timer !== undefined) clearTimeout(timer);
      resolve(r);
    };
    const headers: Record<string, string> = {
      Connection: "Upgrade",
      Upgrade: "websocket",
      "Sec-WebSocket-Version": "13",
      "Sec-WebSocket-Key": crypto.randomBytes(16).toString("base64"),
      "Sec-WebSocket-Protocol": "v4.channel.k8s.io",
    };
    if (k.token) headers.Authorization = `Bearer ${k.token}`;
    const req = https.request(url, {
      method: "GET",
      headers,
      ca: k.ca,
      cert: k.cert,
      key: k.key,
      rejectUnauthorized: !k.insecure,
    });
    timer = setTimeout(() => {
      req.destroy();
      finish({ stdout: "", stderr: "", error: `exec in ${where}: no end within ${timeoutMs / 1000} s` });
    }, timeoutMs);
    req.on("upgrade", (_res, socket, head: Buffer) => {
      let pending = Buffer.from(head);
      const frames: WsFrame[] = [];
      const end = () => finish(execResultOf(frames));
      socket.on("data", (d: Buffer) => {
        const parsed = parseWsFrames(Buffer.concat([pending, d]));
        pending = Buffer.from(parsed.rest);
        for (const f of parsed.frames) {
          if (f.opcode === 8) {
            socket.end();
            return end();
          }
          frames.push(f);
        }
      });
      socket.on("end", end);
      socket.on("close", end);
      socket.on("error", end);
    });
    req.on("response", (res) => {
      res.resume();
      finish({ stdout: "", stderr: "", error: `exec in ${where}: HTTP ${res.statusCode} (no WebSocket upgrade)` });
    });
    req.on("error", (err: Error) => finish({ stdout: "", stderr: "", error: `exec in ${where}: ${err.message}` }));
    req.end();
  });
}
