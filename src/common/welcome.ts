// The welcome of an empty chat, without VS Code: which situation the window is in, which example
// prompts fit the open workspace (from the names of the files at its root: nothing is read), and
// whether an agent found on this computer needs a sign-in (what is known of the presets: the
// environment variables and credential files each reads; files only looked at, nothing run).
import * as l10n from '@vscode/l10n';

/** Why no agent can start here, or `ready`. */
export type WelcomeSituation = 'ready' | 'noFolder' | 'untrusted';

export function welcomeSituation(w: { readonly trusted: boolean; readonly hasFolder: boolean }): WelcomeSituation {
  if (!w.trusted) return 'untrusted';
  return w.hasFolder ? 'ready' : 'noFolder';
}

/** At most this many example prompts. */
export const MAX_EXAMPLES = 3;

const BUILD_FILES = [
  'package.json', 'cargo.toml', 'go.mod', 'pyproject.toml', 'setup.py', 'pom.xml', 'build.gradle', 'build.gradle.kts',
  'cmakelists.txt', 'makefile', 'gemfile', 'composer.json', 'mix.exs', 'deno.json', 'meson.build', 'package.swift',
];

/**
 * Two or three prompts that fit a workspace, from the names at its root (files and folders, any
 * case). A README: summarize it; a build file: how it is built and tested; tests: what they cover;
 * sources without tests: where to start; an empty folder: what to create.
 */
export function examplePrompts(rootNames: readonly string[]): string[] {
  const names = new Set(rootNames.map(n => n.toLowerCase()));
  const has = (re: RegExp) => [...names].some(n => re.test(n));
  const out: string[] = [];
  if (has(/^readme(\.|$)/)) out.push(l10n.t('Summarize this repository'));
  if (BUILD_FILES.some(f => names.has(f)) || [...names].some(n => n.endsWith('.csproj') || n.endsWith('.sln'))) {
    out.push(l10n.t('Explain how this project is built and tested'));
  }
  if (has(/^(tests?|spec|__tests__)$/)) out.push(l10n.t('Which parts of the code have no tests?'));
  if (has(/^(src|lib|app|cmd|pkg)$/)) out.push(l10n.t('Where should a newcomer start reading the code?'));
  const visible = [...names].filter(n => !n.startsWith('.'));
  if (visible.length === 0) out.push(l10n.t('Create a README that explains what this folder is for'));
  if (out.length < 2) out.push(l10n.t('What is in this folder?'));
  if (out.length < 2) out.push(l10n.t('Find a small bug and propose a fix'));
  return out.slice(0, MAX_EXAMPLES);
}

/** What an agent reads to be signed in: any of these environment variables, or any of these files under the home folder. */
export interface SignInEvidence {
  readonly env: readonly string[];
  readonly files: readonly string[];
}

/**
 * The presets that need an account, and where their sign-in lives once done. An agent not listed
 * (a user's own, a registry agent) is not marked: nothing is known of its sign-in.
 */
export const SIGN_IN_EVIDENCE: Readonly<Record<string, SignInEvidence>> = {
  'Claude Code': { env: ['ANTHROPIC_API_KEY', 'CLAUDE_CODE_OAUTH_TOKEN', 'CLAUDE_CODE_USE_BEDROCK', 'CLAUDE_CODE_USE_VERTEX'], files: ['.claude/.credentials.json'] },
  'Codex': { env: ['OPENAI_API_KEY', 'CODEX_API_KEY'], files: ['.codex/auth.json'] },
  'Gemini CLI': { env: ['GEMINI_API_KEY', 'GOOGLE_API_KEY', 'GOOGLE_GENAI_USE_VERTEXAI'], files: ['.gemini/oauth_creds.json'] },
  'GitHub Copilot CLI': { env: ['COPILOT_GITHUB_TOKEN', 'GH_TOKEN', 'GITHUB_TOKEN'], files: ['.copilot/config.json'] },
  'Qwen Code': { env: ['DASHSCOPE_API_KEY', 'OPENAI_API_KEY'], files: ['.qwen/oauth_creds.json'] },
  'Auggie': { env: ['AUGMENT_SESSION_AUTH'], files: ['.augment/session.json'] },
  'Cursor': { env: ['CURSOR_API_KEY'], files: ['.cursor/cli-config.json'] },
};

/**
 * True when `agentName` is known to need a sign-in and none is found: no variable set, no file
 * there, no key stored by Switchboard. False when signed in or when nothing is known of it.
 */
export async function needsSignIn(
  agentName: string,
  probe: { readonly env: Readonly<Record<string, string | undefined>>; readonly hasFile: (relativeToHome: string) => Promise<boolean>; readonly storedKeys: boolean },
): Promise<boolean> {
  const evidence = Object.hasOwn(SIGN_IN_EVIDENCE, agentName) ? SIGN_IN_EVIDENCE[agentName] : undefined;
  if (!evidence || probe.storedKeys) return false;
  if (evidence.env.some(v => !!probe.env[v]?.trim())) return false;
  const found = await Promise.all(evidence.files.map(f => probe.hasFile(f).catch(() => false)));
  return !found.some(Boolean);
}
