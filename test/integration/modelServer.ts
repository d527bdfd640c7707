// A scripted model on 127.0.0.1 for the real adapters (realAdapters.test.ts): the two HTTP shapes
// today's Claude and Codex ACP adapters call, no network, no real model.
//
//   POST /v1/messages   Anthropic Messages, streamed as SSE (the Claude CLI under claude-agent-acp):
//                       tool_use blocks for Read / Edit / Bash, text otherwise.
//   POST /v1/responses  OpenAI Responses, streamed (the codex app-server under codex-acp): a shell
//                       function call for reads and commands, apply_patch as a custom tool call.
//
// A conversation is scripted by a tag in the user's prompt: `plan(tag, steps)` registers the steps,
// and a prompt containing `[[tag]]` plays them one per model request (each request after a tool
// result gets the next step), then answers with a last text. Any other request (a title, a quota
// probe) gets a short text, so the adapters' side requests never stall.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type Step =
  | { readonly tool: 'read'; readonly path: string }
  | { readonly tool: 'edit'; readonly path: string; readonly old: string; readonly new: string }
  /** `escalate`: Codex asks to run it outside its sandbox (as a model does for a write in read-only mode). */
  | { readonly tool: 'bash'; readonly command: string; readonly escalate?: boolean }
  | { readonly text: string };

export interface ModelRequest { readonly url: string; readonly body: any }

export class ModelServer {
  private readonly server = http.createServer((req, res) => this.handle(req, res));
  private readonly plans = new Map<string, readonly Step[]>();
  readonly requests: ModelRequest[] = [];
  private ids = 0;
  port = 0;

  async start(): Promise<this> {
    await new Promise<void>(resolve => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  get url(): string { return `http://127.0.0.1:${this.port}`; }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise(resolve => this.server.close(() => resolve()));
  }

  /** Registers the steps a prompt containing `[[tag]]` plays; returns the tag's marker for the prompt. */
  plan(tag: string, steps: readonly Step[]): string {
    this.plans.set(tag, steps);
    return `[[${tag}]]`;
  }

  /** The step for a conversation whose last prompt holds `text`, after `done` tool calls. */
  private next(text: string, done: number): Step {
    const tag = /\[\[([\w.-]+)\]\]/.exec(text)?.[1];
    const steps = tag === undefined ? undefined : this.plans.get(tag);
    if (!steps) return { text: 'OK.' };
    return steps[done] ?? { text: `Done with ${tag}.` };
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', c => chunks.push(c));
    req.on('end', () => {
      let body: any;
      try { body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}'); } catch { body = {}; }
      const url = req.url ?? '';
      this.requests.push({ url, body });
      if (req.method === 'POST' && url.startsWith('/v1/messages') && !url.includes('count_tokens')) this.anthropic(body, res);
      else if (req.method === 'POST' && url.startsWith('/v1/messages/count_tokens')) json(res, { input_tokens: 10 });
      else if (req.method === 'POST' && url.startsWith('/v1/responses')) this.responses(body, res);
      else if (url.startsWith('/v1/models')) json(res, { data: [], object: 'list' });
      else json(res, { error: { type: 'not_found', message: `no scripted answer for ${req.method} ${url}` } }, 404);
    });
  }

  // ---------------------------------------------------------------------------------- Anthropic

  private anthropic(body: any, res: http.ServerResponse): void {
    const messages: any[] = Array.isArray(body.messages) ? body.messages : [];
    // The last user message with text (not only tool results) is the prompt; tool uses after it are done steps.
    let promptAt = -1;
    for (let i = messages.length - 1; i >= 0 && promptAt < 0; i--) {
      if (messages[i].role === 'user' && userText(messages[i].content).length) promptAt = i;
    }
    const prompt = promptAt < 0 ? '' : userText(messages[promptAt].content);
    const done = messages.slice(promptAt + 1).filter(m => m.role === 'assistant')
      .reduce((n, m) => n + (Array.isArray(m.content) ? m.content.filter((b: any) => b.type === 'tool_use').length : 0), 0);
    const hasTools = Array.isArray(body.tools) && body.tools.length > 0;
    const step = hasTools ? this.next(prompt, done) : { text: 'OK.' };
    const id = `msg_${++this.ids}`;
    let block: any;
    let deltas: any[];
    let stop: string;
    if ('text' in step) {
      block = { type: 'text', text: '' };
      deltas = [{ type: 'text_delta', text: step.text }];
      stop = 'end_turn';
    } else {
      const input = step.tool === 'read' ? { file_path: step.path }
        : step.tool === 'edit' ? { file_path: step.path, old_string: step.old, new_string: step.new, replace_all: false }
        : { command: step.command, description: 'Run a command' };
      block = { type: 'tool_use', id: `toolu_${id}`, name: step.tool === 'read' ? 'Read' : step.tool === 'edit' ? 'Edit' : 'Bash', input: {} };
      deltas = [{ type: 'input_json_delta', partial_json: JSON.stringify(input) }];
      stop = 'tool_use';
    }
    const usage = { input_tokens: 10, output_tokens: 5, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
    if (body.stream !== true) {
      const content = 'text' in step ? [{ type: 'text', text: step.text }] : [{ ...block, input: JSON.parse(deltas[0].partial_json) }];
      json(res, { id, type: 'message', role: 'assistant', model: body.model, content, stop_reason: stop, stop_sequence: null, usage });
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const send = (event: string, data: object) => res.write(`event: ${event}\ndata: ${JSON.stringify({ type: event, ...data })}\n\n`);
    send('message_start', { message: { id, type: 'message', role: 'assistant', model: body.model, content: [], stop_reason: null, stop_sequence: null, usage } });
    send('content_block_start', { index: 0, content_block: block });
    for (const delta of deltas) send('content_block_delta', { index: 0, delta });
    send('content_block_stop', { index: 0 });
    send('message_delta', { delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: 5 } });
    send('message_stop', {});
    res.end();
  }

  // ----------------------------------------------------------------------------- OpenAI Responses

  private responses(body: any, res: http.ServerResponse): void {
    const input: any[] = Array.isArray(body.input) ? body.input : [];
    let promptAt = -1;
    for (let i = input.length - 1; i >= 0 && promptAt < 0; i--) {
      const it = input[i];
      if (it.type === 'message' && it.role === 'user' && userText(it.content).includes('[[')) promptAt = i;
    }
    const prompt = promptAt < 0 ? '' : userText(input[promptAt].content);
    const done = input.slice(promptAt + 1).filter(it => /_call$/.test(it.type ?? '')).length;
    const step = this.next(prompt, done);
    const tools: any[] = Array.isArray(body.tools) ? body.tools : [];
    const id = `resp_${++this.ids}`;
    let item: any;
    if ('text' in step) {
      item = { type: 'message', role: 'assistant', id: `msg_${id}`, status: 'completed', content: [{ type: 'output_text', text: step.text, annotations: [] }] };
    } else if (step.tool === 'edit') {
      const patch = ['*** Begin Patch', `*** Update File: ${step.path}`, '@@',
        ...lines(step.old).map(l => `-${l}`), ...lines(step.new).map(l => `+${l}`), '*** End Patch'].join('\n');
      item = { type: 'custom_tool_call', id: `ctc_${id}`, status: 'completed', call_id: `call_${id}`, name: 'apply_patch', input: patch };
    } else {
      const command = step.tool === 'read' ? `cat ${shellQuote(step.path)}` : step.command;
      item = shellCall(tools, `call_${id}`, command, step.tool === 'bash' && step.escalate === true);
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const send = (data: object) => res.write(`event: ${(data as any).type}\ndata: ${JSON.stringify(data)}\n\n`);
    send({ type: 'response.created', response: { id, object: 'response', status: 'in_progress', output: [] } });
    send({ type: 'response.output_item.added', output_index: 0, item: { ...item, ...(item.type === 'message' ? { content: [], status: 'in_progress' } : {}) } });
    if (item.type === 'message') {
      send({ type: 'response.output_text.delta', item_id: item.id, output_index: 0, content_index: 0, delta: step && 'text' in step ? step.text : '' });
    }
    send({ type: 'response.output_item.done', output_index: 0, item });
    send({
      type: 'response.completed',
      response: { id, object: 'response', status: 'completed', output: [item], usage: { input_tokens: 10, input_tokens_details: { cached_tokens: 0 }, output_tokens: 5, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 15 } },
    });
    res.end();
  }
}

/** The call for a shell command, in the shape of whichever shell tool the request offers. */
function shellCall(tools: readonly any[], callId: string, command: string, escalate: boolean): object {
  const names = new Set(tools.map(t => t.name ?? t.type));
  const escalation = escalate ? { sandbox_permissions: 'require_escalated', justification: 'The test asks for a write.' } : {};
  if (names.has('exec_command')) return { type: 'function_call', id: `fc_${callId}`, status: 'completed', call_id: callId, name: 'exec_command', arguments: JSON.stringify({ cmd: command, ...escalation }) };
  if (names.has('shell_command')) return { type: 'function_call', id: `fc_${callId}`, status: 'completed', call_id: callId, name: 'shell_command', arguments: JSON.stringify({ command, ...escalation }) };
  return { type: 'function_call', id: `fc_${callId}`, status: 'completed', call_id: callId, name: 'shell', arguments: JSON.stringify({ command: ['bash', '-lc', command], ...escalation }) };
}

function userText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.filter(b => b && (b.type === 'text' || b.type === 'input_text') && typeof b.text === 'string').map(b => b.text).join('\n');
}

function lines(text: string): string[] {
  return text.replace(/\n$/, '').split('\n');
}

function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

function json(res: http.ServerResponse, value: object, status = 200): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(value));
}
