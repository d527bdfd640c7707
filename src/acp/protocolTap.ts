// Where the protocol inspector's record is taken: every JSON-RPC message of every agent connection,
// read as it passes the connection's existing message stages (agentConnection.ts `traced`), before
// the SDK dispatches an incoming one and before it serializes an outgoing one.
//
// Cost: while nothing records (the default: the inspector is closed and
// `switchboard.inspector.recordAlways` is off) one boolean test and one method-name test per message
// (the secrets of session/new|load|resume|fork and terminal/create are learnt even then). While recording, the
// envelope is read off the object the SDK already parsed (no parse), the message is serialized once
// and redacted (common/inspector/redact.ts), and the text is kept in a bounded ring buffer
// (common/inspector/traffic.ts); it is parsed again only when a row is opened, copied or exported.
import { mayCarrySecrets, redactPatterns, redactStructure, secretPatterns } from '../common/inspector/redact';
import { Direction, messageHead, TrafficEntry, TrafficLog } from '../common/inspector/traffic';

export interface ConnectionTap {
  /** This connection's number in the record (TrafficFilter.conn). */
  readonly conn: number;
  incoming(message: unknown): void;
  outgoing(message: unknown): void;
}

type Listener = (entry: TrafficEntry, paired: TrafficEntry | undefined) => void;

export class ProtocolTraffic {
  readonly log = new TrafficLog();
  /** How many reasons to record there are (inspectors open, the setting). */
  private reasons = new Set<object>();
  private nextConn = 1;
  private readonly listeners = new Set<Listener>();
  /** A clock the tests may replace. */
  now: () => number = () => Date.now();

  get recording(): boolean {
    return this.reasons.size > 0;
  }

  /** Records while `reason` holds (an open inspector, the setting); dispose to let go. */
  recordWhile(reason: object): { dispose(): void } {
    this.reasons.add(reason);
    return { dispose: () => { this.reasons.delete(reason); } };
  }

  onEntry(listener: Listener): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => { this.listeners.delete(listener); } };
  }

  /** A tap for one new connection of `agent`; `secrets` are redacted wherever they appear. */
  connection(agent: string, secrets: readonly string[]): ConnectionTap {
    const conn = this.nextConn++;
    const known = new Set(secrets);
    let patterns = secretPatterns(known);
    const learn = (found: readonly string[]) => {
      if (found.some(s => !known.has(s))) { for (const s of found) known.add(s); patterns = secretPatterns(known); }
    };
    const record = (dir: Direction, message: unknown) => {
      if (!this.recording) {
        // Not recording: still learn the MCP / terminal secrets a session/new|load|resume or
        // terminal/create carries, so an inspector opened later redacts them when the agent echoes them.
        if (mayCarrySecrets(message)) { try { learn(redactStructure(message).found); } catch { /* never into the connection */ } }
        return;
      }
      try {
        const head = messageHead(message);
        const { message: shown, found } = redactStructure(message);
        learn(found);
        let text = JSON.stringify(shown) ?? 'null';
        if (patterns.length) text = redactPatterns(text, patterns);
        const { entry, paired } = this.log.add(conn, agent, dir, head, text, this.now());
        for (const l of this.listeners) l(entry, paired);
      } catch {
        // Never let the record break the connection (a message JSON cannot hold, a listener's error).
      }
    };
    return { conn, incoming: m => record('in', m), outgoing: m => record('out', m) };
  }
}

/** The one record of the extension host (like processGuard: the connections and the view share it). */
export const protocolTraffic = new ProtocolTraffic();
