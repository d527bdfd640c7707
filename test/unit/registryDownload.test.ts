// Registry downloads against a local HTTP server (checksums, redirects, limits, truncated bodies,
// timeouts, cancellation), and unpacking real tar.gz and zip archives, the unsafe ones refused
// with nothing written outside the target folder.
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { DownloadError, downloadToFile, fetchBytes } from '../../src/host/registry/download';
import { ArchiveError, extractArchive } from '../../src/host/registry/extract';
import { makeTarGz, makeZip } from '../fixtures/registry/archives';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-registry-'));
const body = randomBytes(200_000);
const sha = createHash('sha256').update(body).digest('hex');

describe('registry downloads', () => {
  let server: http.Server;
  let base: string;
  const opts = { maxBytes: 1024 * 1024, idleTimeoutMs: 2000, allowHttp: true };

  before(async () => {
    server = http.createServer((req, res) => {
      switch (req.url) {
        case '/ok': res.writeHead(200, { 'content-length': body.length }); res.end(body); return;
        case '/chunked': res.writeHead(200); res.write(body.subarray(0, 1000)); res.end(body.subarray(1000)); return;
        case '/truncated':
          res.writeHead(200, { 'content-length': body.length });
          res.write(body.subarray(0, 50_000), () => setTimeout(() => res.socket?.destroy(), 20));
          return;
        case '/redirect': res.writeHead(302, { location: '/ok' }); res.end(); return;
        case '/loop': res.writeHead(301, { location: '/loop' }); res.end(); return;
        case '/to-https': res.writeHead(302, { location: 'https://127.0.0.1:1/x' }); res.end(); return;
        case '/big': res.writeHead(200, { 'content-length': 10 * 1024 * 1024 }); res.end(); return;
        case '/big-chunked': {
          res.writeHead(200);
          const chunk = Buffer.alloc(64 * 1024);
          let sent = 0;
          const more = () => { while (sent < 4 * 1024 * 1024) { sent += chunk.length; if (!res.write(chunk)) { res.once('drain', more); return; } } res.end(); };
          more();
          res.on('error', () => undefined);
          return;
        }
        case '/stall': res.writeHead(200, { 'content-length': body.length }); res.write(body.subarray(0, 10)); return;
        case '/hang': return;
        default: res.writeHead(404, 'Not Found'); res.end();
      }
    });
    await new Promise<void>(r => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => { server.closeAllConnections(); server.close(); });

  const failure = async (p: Promise<unknown>, kind: DownloadError['failure'], message?: RegExp) => {
    await assert.rejects(p, (e: unknown) => {
      assert.ok(e instanceof DownloadError, String(e));
      assert.equal(e.failure, kind, e.message);
      if (message) assert.match(e.message, message);
      return true;
    });
  };

  it('streams to a file with its SHA-256 and reports progress against Content-Length', async () => {
    const file = path.join(tmp, 'ok.bin');
    const seen: [number, number | undefined][] = [];
    const got = await downloadToFile(`${base}/ok`, file, { ...opts, onProgress: (r, t) => seen.push([r, t]) });
    assert.deepEqual(got, { bytes: body.length, sha256: sha });
    assert.ok(fs.readFileSync(file).equals(body));
    assert.deepEqual(seen.at(-1), [body.length, body.length]);
  });

  it('follows redirects, reads a body with no length, refuses loops and https to http', async () => {
    assert.equal((await downloadToFile(`${base}/redirect`, path.join(tmp, 'r.bin'), opts)).sha256, sha);
    assert.ok((await fetchBytes(`${base}/chunked`, opts)).equals(body));
    await failure(fetchBytes(`${base}/loop`, opts), 'redirect', /more than 5 redirects/);
  });

  it('refuses plain http unless allowed', async () => {
    await failure(fetchBytes(`${base}/ok`, { ...opts, allowHttp: false }), 'scheme', /only https/);
    await failure(fetchBytes('ftp://127.0.0.1/x', opts), 'scheme');
  });

  it('says when the server closes before the end (fewer bytes than Content-Length)', async () => {
    await failure(downloadToFile(`${base}/truncated`, path.join(tmp, 't.bin'), opts), 'truncated', /ended early: \d+ bytes received of 200000/);
    await failure(fetchBytes(`${base}/truncated`, opts), 'truncated');
  });

  it('stops at the size limit, announced or streamed', async () => {
    await failure(downloadToFile(`${base}/big`, path.join(tmp, 'b.bin'), opts), 'size', /10\.0 MB, more than the limit of 1\.0 MB/);
    await failure(downloadToFile(`${base}/big-chunked`, path.join(tmp, 'b2.bin'), opts), 'size', /passed the limit/);
  });

  it('reports HTTP errors, an unreachable host, silence and cancellation', async () => {
    await failure(fetchBytes(`${base}/missing`, opts), 'http', /HTTP 404 Not Found/);
    const closed = http.createServer();
    await new Promise<void>(r => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise(r => closed.close(r));
    await failure(fetchBytes(`http://127.0.0.1:${port}/`, opts), 'network', /ECONNREFUSED/);
    await failure(fetchBytes(`${base}/hang`, { ...opts, idleTimeoutMs: 200 }), 'timeout', /sent nothing for 0 s/);
    await failure(downloadToFile(`${base}/stall`, path.join(tmp, 's.bin'), { ...opts, idleTimeoutMs: 200 }), 'timeout');
    const abort = new AbortController();
    const p = downloadToFile(`${base}/stall`, path.join(tmp, 'c.bin'), { ...opts, signal: abort.signal });
    setTimeout(() => abort.abort(), 50);
    await failure(p, 'cancelled');
  });

  it('reads a local file (an air-gapped mirror), within the limit', async () => {
    const file = path.join(tmp, 'registry.json');
    fs.writeFileSync(file, '{"agents":[]}');
    assert.equal((await fetchBytes(pathToFileURL(file).href, opts)).toString(), '{"agents":[]}');
    await failure(fetchBytes(pathToFileURL(file).href, { ...opts, maxBytes: 4 }), 'size');
  });
});

describe('registry archives', () => {
  let n = 0;
  /** A fresh source tree, and the folder to unpack into (beside an "outside" folder that must stay empty). */
  const fresh = () => {
    const dir = path.join(tmp, `case-${++n}`);
    const src = path.join(dir, 'src');
    const outside = path.join(dir, 'outside');
    fs.mkdirSync(src, { recursive: true });
    fs.mkdirSync(outside);
    return { dir, src, outside, dest: path.join(dir, 'dest'), archive: path.join(dir, 'archive') };
  };
  const refused = async (p: Promise<unknown>, message: RegExp) => {
    await assert.rejects(p, (e: unknown) => { assert.ok(e instanceof ArchiveError, String(e)); assert.match(e.message, message); return true; });
  };

  it('unpacks a tar.gz: folders, an executable, a link inside', async () => {
    const c = fresh();
    fs.mkdirSync(path.join(c.src, 'pkg/bin'), { recursive: true });
    fs.writeFileSync(path.join(c.src, 'pkg/bin/agent'), '#!/bin/sh\necho hi\n', { mode: 0o755 });
    fs.writeFileSync(path.join(c.src, 'pkg/README'), 'read me');
    fs.symlinkSync('bin/agent', path.join(c.src, 'pkg/agent'));
    fs.writeFileSync(c.archive, await makeTarGz(c.src, ['pkg']));
    await extractArchive(c.archive, 'tar', c.dest, 'pkg/bin/agent');
    assert.equal(fs.readFileSync(path.join(c.dest, 'pkg/agent'), 'utf8'), '#!/bin/sh\necho hi\n');
    assert.ok(fs.statSync(path.join(c.dest, 'pkg/bin/agent')).mode & 0o100, 'still executable');
    assert.equal(fs.readFileSync(path.join(c.dest, 'pkg/README'), 'utf8'), 'read me');
  });

  it('refuses a tar.gz entry with .. or an absolute path, writing nothing outside', async () => {
    const c = fresh();
    fs.mkdirSync(path.join(c.src, 'a'));
    fs.writeFileSync(path.join(c.src, 'evil'), 'x');
    fs.writeFileSync(c.archive, await makeTarGz(path.join(c.src, 'a'), ['../evil'], true));
    await refused(extractArchive(c.archive, 'tar', path.join(c.outside, 'dest'), 'x'), /"\.\.\/evil" leaves the folder/);
    assert.deepEqual(fs.readdirSync(c.outside).filter(f => f !== 'dest'), []);

    const abs = fresh();
    fs.writeFileSync(path.join(abs.src, 'f'), 'x');
    fs.writeFileSync(abs.archive, await makeTarGz(abs.src, [path.join(abs.src, 'f')], true));
    await refused(extractArchive(abs.archive, 'tar', abs.dest, 'x'), /is an absolute path/);
  });

  it('refuses tar.gz links out of the folder, directly or through another link', async () => {
    const c = fresh();
    fs.symlinkSync('/etc', path.join(c.src, 'etc'));
    fs.writeFileSync(c.archive, await makeTarGz(c.src, ['etc']));
    await refused(extractArchive(c.archive, 'tar', c.dest, 'x'), /"etc" links to an absolute path/);

    const hop = fresh();
    fs.symlinkSync('.', path.join(hop.src, 'here'));
    fs.symlinkSync('here/..', path.join(hop.src, 'up'));
    fs.writeFileSync(hop.archive, await makeTarGz(hop.src, ['here', 'up']));
    await refused(extractArchive(hop.archive, 'tar', hop.dest, 'x'), /"up" links outside the agent's folder/);
  });

  it('refuses a damaged tar.gz', async () => {
    const c = fresh();
    fs.writeFileSync(path.join(c.src, 'f'), randomBytes(100_000));
    const good = await makeTarGz(c.src, ['f']);
    fs.writeFileSync(c.archive, good.subarray(0, good.length >> 1));
    await refused(extractArchive(c.archive, 'tar', c.dest, 'x'), /could not be unpacked/);
  });

  it('unpacks a zip: modes, deflated entries, folders, a link inside', async () => {
    const c = fresh();
    fs.writeFileSync(c.archive, makeZip([
      { name: 'pkg/' },
      { name: 'pkg/bin/agent', data: '#!/bin/sh\necho zip\n', mode: 0o755 },
      { name: 'pkg/lib.js', data: 'x'.repeat(10_000), deflate: true },
      { name: 'pkg/agent', data: 'bin/agent', link: true },
    ]));
    await extractArchive(c.archive, 'zip', c.dest, 'pkg/bin/agent');
    assert.ok(fs.statSync(path.join(c.dest, 'pkg/bin/agent')).mode & 0o100);
    assert.ok(!(fs.statSync(path.join(c.dest, 'pkg/lib.js')).mode & 0o100));
    assert.equal(fs.readFileSync(path.join(c.dest, 'pkg/lib.js'), 'utf8'), 'x'.repeat(10_000));
    assert.equal(fs.readFileSync(path.join(c.dest, 'pkg/agent'), 'utf8'), '#!/bin/sh\necho zip\n');
  });

  it('refuses zip entries that leave the folder, links out of it, and what is not a zip', async () => {
    const cases: [Parameters<typeof makeZip>[0], RegExp][] = [
      [[{ name: '../evil', data: 'x' }], /invalid relative path/],
      [[{ name: '/etc/evil', data: 'x' }], /absolute path/],
      [[{ name: 'passwd', data: '/etc/passwd', link: true }], /"passwd" links to an absolute path/],
      [[{ name: 'a/up', data: '../../x', link: true }], /"a\/up" links outside the folder/],
      [[{ name: 'here', data: '.', link: true }, { name: 'up', data: 'here/..', link: true }], /"up" links outside the agent's folder/],
    ];
    for (const [entries, message] of cases) {
      const c = fresh();
      fs.writeFileSync(c.archive, makeZip(entries));
      await refused(extractArchive(c.archive, 'zip', path.join(c.outside, 'dest'), 'x'), message);
      assert.deepEqual(fs.readdirSync(c.outside).filter(f => f !== 'dest'), [], String(message));
    }
    const c = fresh();
    fs.writeFileSync(c.archive, 'not a zip at all');
    await refused(extractArchive(c.archive, 'zip', c.dest, 'x'), /not a valid zip file/);
  });

  it('places a raw program at the registry cmd, executable', async () => {
    const c = fresh();
    fs.writeFileSync(c.archive, '#!/bin/sh\n');
    await extractArchive(c.archive, 'raw', c.dest, 'bin/vibe-acp');
    assert.ok(fs.statSync(path.join(c.dest, 'bin/vibe-acp')).mode & 0o100);
  });
});
