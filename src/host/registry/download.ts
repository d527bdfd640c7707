// Downloads for the agent registry with Node's http/https: redirects followed (never from https
// down to http), a size limit, an idle timeout, cancellation, and a truncated body (the server
// closing early, fewer bytes than Content-Length) reported as such. Archives stream to a file and
// are hashed (SHA-256) on the way. No `vscode` import: unit-tested against a local server too.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import { Transform, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';

export type DownloadFailure = 'network' | 'http' | 'size' | 'truncated' | 'timeout' | 'cancelled' | 'redirect' | 'scheme';

export class DownloadError extends Error {
  constructor(message: string, readonly failure: DownloadFailure) { super(message); }
}

export interface DownloadOptions {
  readonly maxBytes: number;
  /** Fails when the server sends nothing for this long (connecting included). */
  readonly idleTimeoutMs: number;
  readonly signal?: AbortSignal;
  readonly onProgress?: (received: number, total: number | undefined) => void;
  /** Plain http is refused unless allowed (a mirror the user chose, a local test server). */
  readonly allowHttp: boolean;
}

const MAX_REDIRECTS = 5;

const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;

/** Why a request was ended on our side (the idle timeout), once it was: the body's own error says only "aborted". */
interface Ended { failure?: DownloadError }

/** Opens `url`, following redirects, and resolves with a 200 response. */
function open(url: URL, opts: DownloadOptions, ended: Ended, hops = 0): Promise<http.IncomingMessage> {
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && opts.allowHttp)) {
    return Promise.reject(new DownloadError(`refused to download from ${url.protocol}// (${url.host}): only https is allowed`, 'scheme'));
  }
  return new Promise((resolve, reject) => {
    const get = url.protocol === 'https:' ? https.get : http.get;
    const req = get(url, { signal: opts.signal, headers: { 'user-agent': 'switchboard-acp', accept: '*/*' } }, res => {
      const status = res.statusCode ?? 0;
      if (status >= 300 && status < 400 && res.headers.location) {
        res.resume();
        if (hops >= MAX_REDIRECTS) { reject(new DownloadError(`more than ${MAX_REDIRECTS} redirects from ${url.host}`, 'redirect')); return; }
        let next: URL;
        try { next = new URL(res.headers.location, url); } catch { reject(new DownloadError(`bad redirect from ${url.host}`, 'redirect')); return; }
        if (url.protocol === 'https:' && next.protocol !== 'https:') { reject(new DownloadError(`refused a redirect from https to ${next.protocol}// (${next.host})`, 'redirect')); return; }
        resolve(open(next, opts, ended, hops + 1));
        return;
      }
      if (status !== 200) {
        res.resume();
        reject(new DownloadError(`${url.host} answered HTTP ${status}${res.statusMessage ? ' ' + res.statusMessage : ''}`, 'http'));
        return;
      }
      resolve(res);
    });
    req.setTimeout(opts.idleTimeoutMs, () => {
      ended.failure = new DownloadError(`${url.host} sent nothing for ${Math.round(opts.idleTimeoutMs / 1000)} s`, 'timeout');
      req.destroy(ended.failure);
    });
    req.on('error', e => reject(asDownloadError(e, url)));
  });
}

function asDownloadError(e: unknown, url: URL): DownloadError {
  if (e instanceof DownloadError) return e;
  const err = e as NodeJS.ErrnoException;
  if (err?.name === 'AbortError') return new DownloadError('cancelled', 'cancelled');
  return new DownloadError(`could not reach ${url.host}: ${err?.code ?? err?.message ?? String(e)}`, 'network');
}

export interface Downloaded {
  readonly bytes: number;
  /** Hex SHA-256 of what was received. */
  readonly sha256: string;
}

/** Streams `url` into `file` (created or replaced), hashing it. On failure the file may be partial: the caller removes it. */
export function downloadToFile(url: string, file: string, opts: DownloadOptions): Promise<Downloaded> {
  return receive(new URL(url), () => fs.createWriteStream(file), opts);
}

/** Reads a small document (the registry, an icon) from an http(s) or file: URL into memory. */
export async function fetchBytes(url: string, opts: DownloadOptions): Promise<Buffer> {
  const u = new URL(url);
  if (u.protocol === 'file:') {
    const file = fileURLToPath(u);
    const size = (await fs.promises.stat(file)).size;
    if (size > opts.maxBytes) throw new DownloadError(`${file} is ${mb(size)}, more than the limit of ${mb(opts.maxBytes)}`, 'size');
    return fs.promises.readFile(file);
  }
  const chunks: Buffer[] = [];
  await receive(u, () => new Writable({ write(chunk: Buffer, _enc, done) { chunks.push(chunk); done(); } }), opts);
  return Buffer.concat(chunks);
}

/** The body of `u` into the sink, metered, hashed, checked complete. */
async function receive(u: URL, sink: () => Writable, opts: DownloadOptions): Promise<Downloaded> {
  const ended: Ended = {};
  const res = await open(u, opts, ended);
  const length = res.headers['content-length'] !== undefined ? Number(res.headers['content-length']) : undefined;
  const total = Number.isFinite(length) ? length : undefined;
  if (total !== undefined && total > opts.maxBytes) {
    res.destroy();
    throw new DownloadError(`${u.host} offers ${mb(total)}, more than the limit of ${mb(opts.maxBytes)}`, 'size');
  }
  const hash = createHash('sha256');
  let received = 0;
  const meter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      received += chunk.length;
      if (received > opts.maxBytes) { done(new DownloadError(`the download from ${u.host} passed the limit of ${mb(opts.maxBytes)}`, 'size')); return; }
      hash.update(chunk);
      opts.onProgress?.(received, total);
      done(null, chunk);
    },
  });
  try {
    await pipeline(res, meter, sink(), { signal: opts.signal });
  } catch (e) {
    if (e instanceof DownloadError) throw e;
    if (ended.failure) throw ended.failure;
    if ((e as Error)?.name === 'AbortError') throw new DownloadError('cancelled', 'cancelled');
    // The server closed the connection before the end of the body.
    if (!res.complete) throw truncated(u, received, total);
    throw asDownloadError(e, u);
  }
  if (!res.complete || (total !== undefined && received !== total)) throw truncated(u, received, total);
  return { bytes: received, sha256: hash.digest('hex') };
}

const truncated = (u: URL, received: number, total: number | undefined) =>
  new DownloadError(`the download from ${u.host} ended early: ${received} bytes received${total !== undefined ? ` of ${total}` : ''}`, 'truncated');
