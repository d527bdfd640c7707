// Builds every bundle of the project.
//   dist/main.js            the entry point: loads dist/extension.js with V8's code cache (src/boot/codeCache.ts)
//   dist/extension.js       the extension (node, CJS, `vscode` external), what activation loads
//   dist/acp-sdk.js         the ESM-only ACP SDK + zod as CJS, required on first use (src/common/acpSdk.ts)
//   dist/ajv.js             ajv, required on the first elicitation answer (src/common/elicitationCheck.ts)
//   dist/iconv-lite.js      iconv-lite, required on the first file that is not UTF-8 (src/common/fs/encoding.ts)
//   dist/registry.js        Add / Update / Remove Agent (src/host/registry), required on the first of those commands
//   dist/tar.js, yauzl.js   tar and yauzl, required when an agent archive is unpacked (src/host/registry/extract.ts)
//   dist/webview/chat.js    the chat webview (browser, classic self-contained IIFE script) + chat.css,
//                           both written into the chat's page (src/views/pageHtml.ts)
//   dist/webview/markdown.js  its markdown renderer (markdown-it + DOMPurify), a separate ESM bundle that
//                           chat.js loads with import() on first need (webview/lazyMarkdown.ts)
//   dist/webview/inspector.js  the protocol inspector's webview (browser, IIFE) + inspector.css
//   dist/webview/codicon.css, codicon.ttf  the icons, cut to the glyphs the pages use (scripts/codicons.mjs)
//   out/test/**             unit and integration test bundles (node, CJS)
// Flags: --watch, --production (minified, no sourcemaps; used for the VSIX).
import * as esbuild from 'esbuild';
import fs from 'node:fs';
import path from 'node:path';
import subsetFont from 'subset-font';
import { pageCodicons } from './scripts/codicons.mjs';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

const base = {
  bundle: true,
  minify: production,
  sourcemap: production ? false : 'linked',
  logLevel: 'warning',
  legalComments: 'none',
};

// jsonc-parser's `main` is a UMD build whose requires esbuild cannot follow: bundle its ESM build.
const nodeBase = { ...base, platform: 'node', format: 'cjs', target: 'node20', external: ['vscode'], alias: { 'jsonc-parser': 'jsonc-parser/lib/esm/main.js' } };

const list = (dir, suffix) => {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { recursive: true })
    .map(String).filter(f => f.endsWith(suffix)).map(f => path.join(dir, f));
};

// The extension bundle requires the SDK as a file next to it, so activation does not load it.
// The `/unstable` entry point: stable ACP v1 plus child-agent sessions and plan operations (one entry
// point for the app, its types and its method constants, as the SDK's migration notes ask).
const SDK = '@agentclientprotocol/sdk/unstable';
const sdkAsSibling = {
  name: 'acp-sdk-as-sibling',
  setup(build) {
    build.onResolve({ filter: /^@agentclientprotocol\/sdk(\/unstable)?$/ }, args => {
      // Only the lazy loader may reach the runtime; a static value import elsewhere would load it at activation.
      if (!args.importer.endsWith(path.join('src', 'common', 'acpSdk.ts'))) {
        return { errors: [{ text: `${path.relative(process.cwd(), args.importer)}: import the ACP SDK's values through \`sdk\` from src/common/acpSdk.ts (loaded on first use), and its types with \`import type\`` }] };
      }
      return { path: './acp-sdk.js', external: true };
    });
    // ajv (elicitation answers) is required on the first answer only: its own file too.
    build.onResolve({ filter: /^ajv$/ }, () => ({ path: './ajv.js', external: true }));
    // iconv-lite (its code tables) loads on the first file that is not UTF-8 (src/common/fs/encoding.ts).
    build.onResolve({ filter: /^iconv-lite$/ }, () => ({ path: './iconv-lite.js', external: true }));
    // tar and yauzl (registry agent archives) load when an archive is unpacked.
    build.onResolve({ filter: /^(tar|yauzl)$/ }, args => ({ path: `./${args.path}.js`, external: true }));
    // The registry commands load on first use (extension.ts requires them in a function).
    build.onResolve({ filter: /\/host\/registry\/agentRegistry$/ }, args =>
      (args.importer.endsWith(path.join('src', 'extension.ts')) ? { path: './registry.js', external: true } : undefined));
  },
};
/**
 * `vscode` as one module of the bundle that re-exports the API: each `import * as vscode from 'vscode'`
 * of the external module would otherwise copy the whole API object (esbuild's __toESM, in each of
 * ~50 modules: 10 ms of activation on a loaded machine, most of the bundle's own evaluation).
 */
const vscodeOnce = {
  name: 'vscode-once',
  setup(build) {
    build.onResolve({ filter: /^vscode$/ }, args => (args.namespace === 'vscode-once' ? { path: 'vscode', external: true } : { path: 'vscode', namespace: 'vscode-once' }));
    build.onLoad({ filter: /.*/, namespace: 'vscode-once' }, () => ({ contents: "export * from 'vscode';", loader: 'js' }));
  },
};
/**
 * Each of Node's modules as one module of the bundle, for the same reason: `import * as fs from
 * 'node:fs'` (and a default import) of an external module copies its properties once per importing
 * module (29 copies of path, 13 of fs: 2 ms of the bundle's 6–7 ms evaluation in plain Node).
 */
const builtinsOnce = {
  name: 'builtins-once',
  setup(build) {
    // Import statements only: a require() keeps Node's own module (a copy made here is read-only and
    // not callable: `require('node:events')` would be no constructor).
    build.onResolve({ filter: /^node:/ }, args => (args.namespace === 'builtins-once' || args.kind !== 'import-statement' ? { path: args.path, external: true } : { path: args.path, namespace: 'builtins-once' }));
    build.onLoad({ filter: /.*/, namespace: 'builtins-once' }, args => ({ contents: `export * from '${args.path}'; export { default } from '${args.path}';`, loader: 'js' }));
  },
};
/** Fails the build when the activation bundle pulls in a heavy module statically again. */
const heavyGuard = {
  name: 'heavy-guard',
  setup(build) {
    build.onEnd(result => {
      if (!result.metafile) return undefined;
      const inputs = Object.keys(result.metafile.outputs['dist/extension.js']?.inputs ?? {});
      const heavy = inputs.filter(f => /node_modules\/(zod|@agentclientprotocol|ajv|tar|yauzl|minipass|minizlib|iconv-lite|safer-buffer)\/|src\/host\/registry\//.test(f));
      // esbuild 0.28 fails the build on errors an onEnd callback returns (pushing them into `result` does not).
      if (heavy.length) {
        return { errors: [{ text: `dist/extension.js must not bundle the ACP SDK, zod, ajv, tar, yauzl or the registry commands (they load on first use from their own files in dist/; use \`sdk\` from src/common/acpSdk.ts for the SDK's values, \`require\` in a function for the others, and \`import type\` for types): ${heavy.slice(0, 3).join(', ')}` }] };
      }
      // dist/main.js compiles the bundle with vm.Script (src/boot/codeCache.ts), where a dynamic import() has no loader.
      if (/\bimport\(/.test(fs.readFileSync('dist/extension.js', 'utf8'))) {
        return { errors: [{ text: 'dist/extension.js must not use a dynamic import(): it is compiled with vm.Script (src/boot/codeCache.ts), which has no module loader for it; use require() in a function' }] };
      }
    });
  },
};

// chat.js is a classic script, written into the chat's page (src/views/pageHtml.ts); it imports the
// renderer, a separate ESM bundle, with import() of the URL the page names, on first need. An
// import() carries its script's nonce, so the CSP stays `script-src 'nonce-…'`.
const webview = { ...base, platform: 'browser', target: 'es2022', loader: { '.ttf': 'file' }, metafile: true };
const RENDERER = /node_modules\/(markdown-it|dompurify|mdurl|linkify-it|punycode|entities|uc\.micro)\/|webview\/markdown\.ts$/;
/**
 * Fails the build when chat.js holds the markdown renderer again, or when a module is in both chat.js
 * and markdown.js (built apart, it would run twice with separate state). Both builds use it; each
 * records its inputs, and the one that ends second compares them.
 */
const bundled = new Map();
const webviewGuard = {
  name: 'webview-guard',
  setup(build) {
    build.onEnd(result => {
      if (!result.metafile) return undefined;
      for (const [out, o] of Object.entries(result.metafile.outputs)) if (out.endsWith('.js')) bundled.set(out, Object.keys(o.inputs));
      const chat = bundled.get('dist/webview/chat.js') ?? [];
      const heavy = chat.filter(f => RENDERER.test(f));
      if (heavy.length) {
        return { errors: [{ text: `dist/webview/chat.js must not hold the markdown renderer (it loads on first need from markdown.js; use webview/lazyMarkdown.ts, never a static import of webview/markdown.ts): ${heavy.slice(0, 3).join(', ')}` }] };
      }
      const shared = (bundled.get('dist/webview/markdown.js') ?? []).filter(f => chat.includes(f));
      if (shared.length) {
        return { errors: [{ text: `dist/webview/chat.js and markdown.js both bundle ${shared.slice(0, 3).join(', ')}: webview/markdown.ts must not import what chat.js uses (pass it in, as setLabels does for the l10n strings)` }] };
      }
    });
  },
};

const builds = [
  { ...nodeBase, entryPoints: ['src/extension.ts'], outfile: 'dist/extension.js', plugins: [vscodeOnce, builtinsOnce, sdkAsSibling, heavyGuard], metafile: true },
  { ...nodeBase, entryPoints: ['src/main.ts'], outfile: 'dist/main.js' },
  { ...nodeBase, entryPoints: { registry: 'src/host/registry/agentRegistry.ts' }, outdir: 'dist', plugins: [sdkAsSibling] },
  { ...nodeBase, entryPoints: { 'acp-sdk': SDK, ajv: 'ajv', tar: 'tar', yauzl: 'yauzl', 'iconv-lite': 'iconv-lite' }, outdir: 'dist' },
  // The `script-start` mark: when the page's script begins to run (bench/activation --timeline).
  { ...webview, format: 'iife', entryPoints: { chat: 'webview/main.ts' }, outdir: 'dist/webview', plugins: [webviewGuard], banner: { js: "performance.mark('script-start');" } },
  { ...webview, format: 'esm', entryPoints: { markdown: 'webview/markdown.ts' }, outdir: 'dist/webview', plugins: [webviewGuard] },
  // The protocol inspector (src/views/inspectorPanel.ts): its own page, its own classic script.
  { ...webview, format: 'iife', entryPoints: { inspector: 'webview/inspector.ts' }, outdir: 'dist/webview' },
];

if (!production) {
  const unit = list('test/unit', '.test.ts');
  const integration = [...list('test/integration', '.ts')];
  // typescript: the l10n unit test parses src/common with it; subset-font (HarfBuzz's wasm): the codicons
  // test cuts the font. Both loaded from node_modules, not bundled.
  if (unit.length) builds.push({ ...nodeBase, entryPoints: unit, outbase: 'test', outdir: 'out/test', external: ['vscode', 'mocha', 'typescript', 'subset-font'] });
  if (integration.length) builds.push({ ...nodeBase, entryPoints: integration, outbase: 'test', outdir: 'out/test', external: ['vscode', 'mocha'] });
}

// Codicons are served from the extension, not a CDN (the webview CSP allows only our own origin).
// codicon.css and codicon.ttf hold only the glyphs our pages use (scripts/codicons.mjs, decision
// 0033): both are written into every chat page. A `codicon-<name>` the package has no glyph for
// fails the build.
const copyCodicons = async () => {
  const { css, ttf } = await pageCodicons(fs, path, 'node_modules/@vscode/codicons/dist', subsetFont);
  fs.mkdirSync('dist/webview', { recursive: true });
  fs.writeFileSync('dist/webview/codicon.css', css);
  fs.writeFileSync('dist/webview/codicon.ttf', ttf);
};

if (watch) {
  await copyCodicons();
  for (const b of builds) await (await esbuild.context(b)).watch();
  console.log('esbuild: watching');
} else {
  fs.rmSync('dist', { recursive: true, force: true });
  fs.rmSync('out', { recursive: true, force: true });
  await Promise.all([...builds.map(b => esbuild.build(b)), copyCodicons()]);
}
