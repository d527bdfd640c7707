// What the registry commands show: the quick pick of registry agents (icon, description, version,
// installed / update available / not available here), its title saying how old an offline copy
// is, and the dialogs. The dialogs sit behind RegistryUi so tests can answer them.
import * as vscode from 'vscode';
import { Choice, isChoice, isUnverified, pickDistribution, Unavailable } from '../../common/registry/distribution';
import { InstallRecord, InstallState, installState, relativeAge } from '../../common/registry/installed';
import type { PlatformKey, RegistryAgent } from '../../common/registry/schema';
import type { LoadedRegistry } from './registrySource';

export interface AgentPickItem extends vscode.QuickPickItem {
  readonly agent: RegistryAgent;
  readonly state: InstallState;
  readonly choice: Choice | Unavailable;
}

export interface PickerContent<T extends vscode.QuickPickItem> {
  readonly title: string;
  readonly items: readonly T[];
}

/** The dialogs of the registry commands; tests replace it to answer them. */
export interface RegistryUi {
  /** Shows a quick pick at once (busy) and fills it when `content` resolves. */
  pick<T extends vscode.QuickPickItem>(content: Promise<PickerContent<T>>, placeHolder: string): Promise<T | undefined>;
  /** A modal question with one action besides Cancel. */
  confirm(message: string, detail: string, action: string): Promise<boolean>;
  info(message: string, ...actions: string[]): Promise<string | undefined>;
  error(message: string): void;
}

export const windowUi: RegistryUi = {
  pick<T extends vscode.QuickPickItem>(content: Promise<PickerContent<T>>, placeHolder: string): Promise<T | undefined> {
    const qp = vscode.window.createQuickPick<T>();
    qp.placeholder = placeHolder;
    qp.matchOnDescription = true;
    qp.matchOnDetail = true;
    qp.busy = true;
    qp.show();
    return new Promise(resolve => {
      content.then(c => { qp.title = c.title; qp.items = c.items; qp.busy = false; }, () => qp.hide());
      qp.onDidAccept(() => { resolve(qp.selectedItems[0]); qp.hide(); });
      qp.onDidHide(() => { resolve(undefined); qp.dispose(); });
    });
  },
  async confirm(message, detail, action) {
    return (await vscode.window.showWarningMessage(message, { modal: true, detail }, action)) === action;
  },
  async info(message, ...actions) {
    return vscode.window.showInformationMessage(message, ...actions);
  },
  error(message) {
    void vscode.window.showErrorMessage(message);
  },
};

/** The picker's heading, and where its copy of the registry came from and how old it is when offline. */
export function registryTitle(loaded: LoadedRegistry, heading: string, now = Date.now(), locale = vscode.env.language): string {
  const age = relativeAge(loaded.fetchedAt, now, locale);
  switch (loaded.source) {
    case 'network': return heading;
    case 'cache': return vscode.l10n.t('{0} (offline: the registry as fetched {1})', heading, age);
    case 'snapshot': return vscode.l10n.t('{0} (offline: the registry shipped with Switchboard, from {1})', heading, age);
  }
}

/** The picker's items: every registry agent with what installing it would mean here. */
export function buildAgentItems(
  loaded: LoadedRegistry,
  records: Readonly<Record<string, InstallRecord>>,
  configured: (name: string) => boolean,
  platform: PlatformKey | undefined,
  iconOf: (agent: RegistryAgent) => AgentPickItem['iconPath'] | undefined,
  allowUnverified = false,
): AgentPickItem[] {
  return loaded.registry.agents.map(agent => {
    const state = installState(agent.version, records[agent.id], configured);
    const choice = pickDistribution(agent, platform);
    const unverified = isUnverified(choice) ? unverifiedText(state, allowUnverified) : undefined;
    return {
      label: agent.name,
      description: [agent.version, unverified?.blocked ? undefined : stateText(state, choice, platform), unverified?.short].filter(Boolean).join(' · '),
      detail: unverified ? [agent.description, unverified.why].filter(Boolean).join(' — ') : agent.description,
      iconPath: iconOf(agent) ?? new vscode.ThemeIcon('hubot'),
      agent, state, choice,
    };
  });
}

/** A binary without a published checksum: installable only when the user allows it (user settings). */
function unverifiedText(state: InstallState, allowed: boolean): { short: string; why: string; blocked: boolean } {
  if (!allowed && state.state !== 'installed') {
    return {
      // "download" would promise what is refused: the reason takes its place.
      blocked: state.state === 'available',
      short: vscode.l10n.t('not installable: no checksum published'),
      why: vscode.l10n.t('The registry publishes no SHA-256 checksum for this download: it cannot be verified. Turn on {0} to install it anyway.', 'switchboard.registry.allowUnverified'),
    };
  }
  return {
    blocked: false,
    short: vscode.l10n.t('unverified: no checksum published'),
    why: vscode.l10n.t('The registry publishes no SHA-256 checksum for this download: it is not verified.'),
  };
}

function stateText(state: InstallState, choice: Choice | Unavailable, platform: PlatformKey | undefined): string {
  if (!isChoice(choice)) {
    return choice.reason === 'format'
      ? vscode.l10n.t('not available: {0} archives are not unpacked yet', choice.format)
      : vscode.l10n.t('not available for {0}', platform ?? `${process.platform}-${process.arch}`);
  }
  switch (state.state) {
    case 'installed': return vscode.l10n.t('installed');
    case 'update': return vscode.l10n.t('update available: {0} → {1}', state.version, state.latest);
    case 'available': return choice.kind === 'binary' ? vscode.l10n.t('download') : choice.kind;
  }
}

/** Why an agent cannot be installed here, in a sentence. */
export function unavailableMessage(agent: RegistryAgent, u: Unavailable): string {
  if (u.reason === 'format') {
    return vscode.l10n.t('{0} {1} cannot be installed: its {2} download is a {3} archive, which Switchboard does not unpack.', agent.name, agent.version, u.platform, u.format);
  }
  const here = u.platform ?? `${process.platform}-${process.arch}`;
  return u.published.length
    ? vscode.l10n.t('{0} {1} is not available for {2}: the registry has builds for {3} only.', agent.name, agent.version, here, u.published.join(', '))
    : vscode.l10n.t('{0} {1} is not available for {2}.', agent.name, agent.version, here);
}
