// The welcome of an empty chat: the agents found on this computer (one click starts one; marked when
// it needs a sign-in), adding one from the ACP registry, example prompts that fit the workspace
// (a click fills the prompt box, never sends), and one line on what Switchboard does differently,
// with the walkthrough one click away. A window where no agent can start (no folder, untrusted)
// says why and what to do; a remote window says where agents are looked for. Real buttons, a
// heading, lists: Tab walks it top to bottom before the prompt box. All text is set as text.
import * as l10n from '@vscode/l10n';
import type { ViewMessage, WelcomeAction, WelcomeView } from '../src/common/protocol';
import { button, h } from './dom';

export interface WelcomeHost {
  send(message: ViewMessage): void;
  /** Puts an example into the prompt box (replacing what is there) and focuses it. */
  fillPrompt(text: string): void;
}

export class Welcome {
  private view: WelcomeView | undefined;
  private empty = false;

  constructor(private readonly el: HTMLElement, private readonly host: WelcomeHost) {
    el.hidden = true;
  }

  /** What the host found (agents, examples, situation). */
  set(view: WelcomeView): void {
    // Re-rendering moves no focus: the focused button is found again by its key.
    const focused = this.el.contains(document.activeElement) ? (document.activeElement as HTMLElement).dataset.key : undefined;
    this.view = view;
    this.render();
    if (focused) this.el.querySelector<HTMLElement>(`[data-key="${CSS.escape(focused)}"]`)?.focus();
  }

  /** Shown only while the conversation is empty. */
  setEmpty(empty: boolean): void {
    if (this.empty === empty) return;
    this.empty = empty;
    this.el.hidden = !empty || !this.view;
  }

  private render(): void {
    const v = this.view;
    this.el.hidden = !this.empty || !v;
    if (!v) return;
    const title = h('h2', 'welcome-title', { id: 'welcome-title' }, l10n.t('Start with an agent'));
    const parts: HTMLElement[] = [title];
    if (v.situation === 'untrusted') {
      parts.push(h('p', 'welcome-note', { role: 'note' }, l10n.t('This workspace is in Restricted Mode: Switchboard does not start agents in a workspace you have not trusted, because an agent reads and runs what is in it.')),
        this.action(l10n.t('Trust this workspace…'), 'trust', 'shield'));
    } else if (v.situation === 'noFolder') {
      parts.push(h('p', 'welcome-note', { role: 'note' }, l10n.t('Open a folder first: an agent works in a workspace folder.')),
        this.action(l10n.t('Open Folder…'), 'openFolder', 'folder-opened'));
    } else {
      parts.push(...this.agents(v), ...this.examples(v));
    }
    parts.push(this.differs());
    this.el.replaceChildren(...parts);
  }

  private agents(v: WelcomeView): HTMLElement[] {
    const out: HTMLElement[] = [];
    const heading = v.remote
      ? l10n.t({ message: 'Agents found on the remote side ({0})', args: [v.remote], comment: '{0} is the kind of remote, e.g. ssh-remote, wsl, dev-container' })
      : l10n.t('Agents found on this computer');
    out.push(h('h3', 'welcome-heading', { id: 'welcome-agents' }, heading));
    if (v.remote) out.push(h('p', 'welcome-note', {}, l10n.t('This window is connected to a remote: agents are looked for and run there, not on the computer in front of you.')));
    if (v.agents.length) {
      const list = h('ul', 'welcome-agents', { 'aria-labelledby': 'welcome-agents' });
      for (const a of v.agents) {
        const li = h('li', 'welcome-agent');
        const start = button('', 'welcome-start', () => this.host.send({ type: 'welcome/start', name: a.name }));
        start.dataset.key = `agent:${a.name}`;
        start.append(h('span', `codicon codicon-${a.running ? 'check' : 'play'}`, { 'aria-hidden': 'true' }),
          h('span', '', {}, a.running ? l10n.t('{0} (running)', a.name) : l10n.t('Start {0}', a.name)));
        if (a.needsSignIn) start.append(' ', h('span', 'welcome-badge', {}, l10n.t({ message: 'needs a sign-in', comment: 'Beside an agent that asks for an account before it answers' })));
        start.title = a.needsSignIn ? l10n.t('Start {0}. It will ask you to sign in first.', a.name) : l10n.t('Start {0}', a.name);
        li.append(start);
        list.append(li);
      }
      out.push(list);
    } else {
      out.push(h('p', 'welcome-note', {}, v.remote
        ? l10n.t('No agent was found on the remote side. Add one from the ACP registry, or send a prompt and choose one of the presets: it is downloaded on its first start.')
        : l10n.t('No agent was found on this computer. Add one from the ACP registry, or send a prompt and choose one of the presets: it is downloaded on its first start.')));
    }
    out.push(this.action(l10n.t('Add an agent from the ACP registry'), 'addAgent', 'cloud-download'));
    return out;
  }

  private examples(v: WelcomeView): HTMLElement[] {
    if (!v.examples.length) return [];
    const list = h('ul', 'welcome-examples', { 'aria-labelledby': 'welcome-examples' });
    for (const text of v.examples) {
      const li = h('li', '');
      const b = button('', 'welcome-example', () => this.host.fillPrompt(text), l10n.t('Put “{0}” into the prompt box', text));
      b.dataset.key = `example:${text}`;
      b.append(h('span', 'codicon codicon-comment', { 'aria-hidden': 'true' }), h('span', '', {}, text));
      li.append(b);
      list.append(li);
    }
    return [h('h3', 'welcome-heading', { id: 'welcome-examples' }, l10n.t('Try asking')), list];
  }

  private differs(): HTMLElement {
    const p = h('p', 'welcome-differs', {}, l10n.t('Every change an agent wants to write is shown to you for review before it lands, and any ACP agent can be used.') + ' ');
    const link = button(l10n.t('Open the walkthrough'), 'welcome-link', () => this.host.send({ type: 'welcome/action', action: 'getStarted' }));
    link.dataset.key = 'getStarted';
    p.append(link);
    return p;
  }

  private action(label: string, action: WelcomeAction, icon: string): HTMLElement {
    const b = button('', 'welcome-action secondary', () => this.host.send({ type: 'welcome/action', action }));
    b.dataset.key = action;
    b.append(h('span', `codicon codicon-${icon}`, { 'aria-hidden': 'true' }), h('span', '', {}, label));
    return b;
  }
}
