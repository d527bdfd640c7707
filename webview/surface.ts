// This page is one surface of the chat (the side bar's view, or an editor tab of its own): it shows
// its own conversation. What it shows is kept in the page's state, which VS Code keeps across a
// window reload (and hands back to an editor tab it restores), and named again in `view/ready`; every
// message that acts on a conversation goes out naming the one shown here (protocol.ts stampTab).
import { stampTab, type ViewMessage } from '../src/common/protocol';

export interface VsCodeApi {
  postMessage(message: ViewMessage): void;
  setState(state: unknown): void;
  getState(): unknown;
}

export class Surface {
  /** A helper's tab keeps its own state (which conversation and helper it shows). */
  private readonly keepsOwnState: boolean;

  constructor(private readonly api: VsCodeApi, private readonly shownTab: () => string | undefined, childTab: boolean) {
    this.keepsOwnState = childTab;
  }

  /** Sends `m`, naming the conversation shown here when it acts on one. */
  readonly send = (m: ViewMessage): void => this.api.postMessage(stampTab(m, this.shownTab()));

  /** The conversation this page showed before it was (re)loaded. */
  saved(): string | undefined {
    const tab = (this.api.getState() as { tab?: unknown } | undefined)?.tab;
    return this.keepsOwnState || typeof tab !== 'string' ? undefined : tab;
  }

  /** Remembers the conversation shown now (for a reload). */
  remember(): void {
    const tab = this.shownTab();
    if (!this.keepsOwnState && tab !== undefined) this.api.setState({ tab });
  }
}
