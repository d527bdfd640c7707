// The elicitations (`elicitation/create`) open in one conversation: each is a card; the user's
// Submit / Decline / Cancel answers it as the protocol says. A form's content is checked with ajv
// here before anything is sent; a URL opens through VS Code only after the user's click on the card.
import type * as acp from '@agentclientprotocol/sdk/unstable';
import { sdk } from '../common/acpSdk';
import { escapeBidi } from '../common/bidi';
import { contentFromValues, formFromSchema, FormView, initialValues, QuestionView, RawValue, urlTarget } from '../common/elicitation';
import { checkContent } from '../common/elicitationCheck';
import type { TranscriptOp } from '../common/transcript';
import { truncateText } from '../common/truncate';

export type QuestionAction = 'accept' | 'decline' | 'cancel';

interface Open {
  readonly resolve: (r: acp.CreateElicitationResponse) => void;
  readonly form?: FormView;
  readonly url?: string;
  readonly elicitationId?: string;
}

interface QuestionTranscript {
  addQuestion(q: QuestionView): { id: string; ops: TranscriptOp[] };
  updateQuestion(id: string, patch: Partial<QuestionView>): TranscriptOp[];
}

const MAX_MESSAGE = 10_000;

export class Questions {
  private readonly open = new Map<string, Open>();
  /** URL elicitations the user opened, by elicitationId → item, until `elicitation/complete`. */
  private readonly opened = new Map<string, string>();

  constructor(
    private readonly transcript: () => QuestionTranscript,
    private readonly emit: (ops: readonly TranscriptOp[]) => void,
    private readonly changed: () => void,
    private readonly openUrl: (href: string) => Promise<boolean>,
  ) {}

  get ids(): string[] { return [...this.open.keys()]; }

  /** Shows the card; refuses (-32602) a schema or URL it cannot show, before the user sees anything. */
  ask(params: acp.CreateElicitationRequest, signal: AbortSignal, late: boolean): Promise<acp.CreateElicitationResponse> {
    const p = params as acp.CreateElicitationRequest & { requestedSchema?: unknown; url?: unknown; elicitationId?: unknown };
    const message = escapeBidi(truncateText(String(p.message ?? ''), MAX_MESSAGE, '\n'));
    let view: QuestionView;
    let entry: Omit<Open, 'resolve'>;
    if (p.mode === 'form') {
      const parsed = formFromSchema(p.requestedSchema);
      if ('error' in parsed) throw sdk.RequestError.invalidParams({ requestedSchema: p.requestedSchema }, parsed.error);
      view = { message, form: parsed.form, values: initialValues(parsed.form) };
      entry = { form: parsed.form };
    } else if (p.mode === 'url') {
      const target = urlTarget(p.url);
      if ('error' in target) throw sdk.RequestError.invalidParams({ url: p.url }, target.error);
      if (typeof p.elicitationId !== 'string') throw sdk.RequestError.invalidParams({}, 'Refused elicitation: elicitationId must be a string');
      view = { message, url: { href: escapeBidi(target.href), host: escapeBidi(target.host), secure: target.secure } };
      entry = { url: target.href, elicitationId: p.elicitationId };
    } else {
      throw sdk.RequestError.invalidParams({ mode: p.mode }, `Unsupported elicitation mode ${JSON.stringify(p.mode)} (form and url are supported)`);
    }
    const { id, ops } = this.transcript().addQuestion(late ? { ...view, late } : view);
    this.emit(ops);
    return new Promise(resolve => {
      this.open.set(id, { ...entry, resolve });
      signal.addEventListener('abort', () => this.finish(id, { action: 'cancel' }, 'cancelled'), { once: true });
      this.changed();
    });
  }

  /** The user's answer from the card. A form that does not validate stays open with its messages; nothing is sent. */
  async answer(itemId: string, action: QuestionAction, values: Readonly<Record<string, RawValue>> = {}): Promise<void> {
    const q = this.open.get(itemId);
    if (!q) return;
    if (action !== 'accept') { this.finish(itemId, { action }, action === 'decline' ? 'declined' : 'cancelled'); return; }
    if (q.form) {
      const built = contentFromValues(q.form, values);
      const errors = Object.keys(built.errors).length ? built.errors : checkContent(q.form, built.content);
      if (Object.keys(errors).length) {
        this.emit(this.transcript().updateQuestion(itemId, { values, errors }));
        return;
      }
      this.finish(itemId, { action: 'accept', content: built.content }, 'accepted', { values, errors: undefined });
      return;
    }
    // URL mode: the card's button was the user's yes; VS Code may still ask about the domain itself.
    if (!(await this.openUrl(q.url!)) || !this.open.has(itemId)) return;
    this.opened.set(q.elicitationId!, itemId);
    this.finish(itemId, { action: 'accept' }, 'opened');
  }

  /** `elicitation/complete`: the card closes (answered `cancel` if the user had not answered yet). */
  complete(elicitationId: string): boolean {
    const opened = this.opened.get(elicitationId);
    if (opened) {
      this.opened.delete(elicitationId);
      this.emit(this.transcript().updateQuestion(opened, { outcome: 'completed' }));
      return true;
    }
    const pending = [...this.open].find(([, q]) => q.elicitationId === elicitationId);
    if (pending) this.finish(pending[0], { action: 'cancel' }, 'completed');
    return !!pending;
  }

  /** Stop, the turn's end, the agent's exit: every open card is answered `cancel`. */
  cancelAll(): void {
    for (const id of this.ids) this.finish(id, { action: 'cancel' }, 'cancelled');
  }

  private finish(itemId: string, response: acp.CreateElicitationResponse, outcome: NonNullable<QuestionView['outcome']>, patch: Partial<QuestionView> = {}): void {
    const q = this.open.get(itemId);
    if (!q) return;
    this.open.delete(itemId);
    this.emit(this.transcript().updateQuestion(itemId, { ...patch, outcome }));
    q.resolve(response);
    this.changed();
  }
}
