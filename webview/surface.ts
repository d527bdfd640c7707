// This page is one surface of the chat (the side bar's view, or an editor tab of its own): it shows
// its own conversation. What it shows is kept in the page's state, which VS Code keeps across a
// window reload (and hands back to an editor tab it restores), and named again in `view/ready`; every
// message that acts on a conversation goes out naming the one shown here (protocol.ts stampTab).
import { stampTab, type FirstState, type ViewMessage } from '../src/common/protocol';

export interface VsCodeApi {
  postMessage(message: ViewMessage): void;
  setState(state: unknown): void;
  getState(): unknown;
}

export class Surface {
  /** A helper's tab keeps its own state (which conversation and helper it shows). */
  private readonly keepsOwnState: boolean;
  /** This page's own id, kept in its state from its first load on. */
  private readonly key: string;
  private readonly savedTab: string | undefined;
  /** The first state written into this page, shown by it now or by an earlier page made from the same HTML. */
  private readonly firstId: string | undefined;

  /** `first`: the state written into the page, which it shows now (webview/firstState.ts). */
  constructor(private readonly api: VsCodeApi, private readonly shownTab: () => string | undefined, childTab: boolean, private readonly first?: FirstState) {
    this.keepsOwnState = childTab;
    const state = (childTab ? undefined : api.getState()) as { tab?: unknown; key?: unknown; first?: unknown } | undefined;
    this.savedTab = typeof state?.tab === 'string' ? state.tab : undefined;
    this.key = typeof state?.key === 'string' ? state.key : first?.key ?? randomKey();
    this.firstId = first?.id ?? (typeof state?.first === 'string' ? state.first : undefined);
    this.remember();
  }

  /** What `view/ready` says of this page: its id, the conversation it showed before a reload, the first state it shows. */
  ready(): ViewMessage {
    return this.keepsOwnState ? { type: 'view/ready' } : {
      type: 'view/ready', key: this.key, ...(this.savedTab === undefined ? {} : { tab: this.savedTab }), ...(this.first ? { first: this.first.id } : {}),
    };
  }

  /** Sends `m`, naming the conversation shown here when it acts on one. */
  readonly send = (m: ViewMessage): void => this.api.postMessage(stampTab(m, this.shownTab()));

  /**
   * Calls `used` when the user clicks in the page, or presses a key in it after it had lost the
   * focus: commands without a conversation of their own then act on this page's. Focus moved by a
   * program (the page focusing its prompt box as it loads) is no use.
   */
  onUse(used: () => void): void {
    let told = false;
    window.addEventListener('blur', () => { told = false; });
    document.addEventListener('pointerdown', () => { told = true; used(); }, { capture: true });
    document.addEventListener('keydown', () => { if (!told) { told = true; used(); } }, { capture: true });
  }

  /** Remembers the conversation shown now (for a reload). */
  remember(): void {
    const tab = this.shownTab() ?? this.savedTab;
    if (!this.keepsOwnState) this.api.setState({ key: this.key, ...(tab === undefined ? {} : { tab }), ...(this.firstId === undefined ? {} : { first: this.firstId }) });
  }
}

/** A random id for this page (getRandomValues: randomUUID exists only in secure contexts). */
function randomKey(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), b => b.toString(16).padStart(2, '0')).join('');
}
