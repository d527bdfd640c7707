// The ACP SDK's runtime (with zod: ~140 KB of minified code, more than half of the extension) is
// loaded when an agent first needs it, not when the extension activates. Use `sdk.X` for values
// (`sdk.RequestError`, `sdk.methods`, …) and `import type * as acp` for types.
// In the VSIX, esbuild.mjs keeps the SDK in its own file, dist/acp-sdk.js, and the first property
// read of `sdk` requires it; test bundles simply bundle it.
import type * as Sdk from '@agentclientprotocol/sdk/unstable';

let loaded: typeof Sdk | undefined;
const load = (): typeof Sdk => (loaded ??= require('@agentclientprotocol/sdk/unstable') as typeof Sdk);

/** The SDK's exports, loaded on first access. */
export const sdk: typeof Sdk = new Proxy({} as typeof Sdk, {
  get: (_target, key) => Reflect.get(load(), key),
  has: (_target, key) => Reflect.has(load(), key),
});

/** Whether the SDK has been loaded yet (tests and the activation bench read it). */
export const sdkLoaded = (): boolean => loaded !== undefined;
