// Which of the inspector's messages a filter keeps: by method, by session, by text (case-insensitive,
// in the message's JSON and its method).
import type { TrafficEntry } from './traffic';

export interface TrafficFilter {
  /** Exact method (a response counts with its request's method). */
  readonly method?: string;
  /** One agent connection (ProtocolTraffic's number for it): session ids are per connection. */
  readonly conn?: number;
  /** Exact session id. */
  readonly session?: string;
  readonly text?: string;
}

export function isEmptyFilter(f: TrafficFilter): boolean {
  return !f.method && f.conn === undefined && !f.session && !f.text;
}

/** A predicate for the filter; the text is lowered once, not per message. */
export function matcher(f: TrafficFilter): (e: TrafficEntry) => boolean {
  const text = f.text?.toLowerCase();
  return e => {
    if (f.method && e.method !== f.method) return false;
    if (f.conn !== undefined && e.conn !== f.conn) return false;
    if (f.session && e.session !== f.session) return false;
    if (text && !(e.method?.toLowerCase().includes(text) || includesIgnoreCase(e.text, text))) return false;
    return true;
  };
}

/** Parses a filter the view sent (untrusted): strings only, bounded. */
export function parseFilter(raw: unknown): TrafficFilter {
  const r = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
  const str = (v: unknown) => (typeof v === 'string' && v ? v.slice(0, 1000) : undefined);
  const method = str(r.method);
  const session = str(r.session);
  const text = str(r.text);
  const conn = Number.isSafeInteger(r.conn) && (r.conn as number) > 0 ? r.conn as number : undefined;
  return { ...(method ? { method } : {}), ...(conn !== undefined ? { conn } : {}), ...(session ? { session } : {}), ...(text ? { text } : {}) };
}

function includesIgnoreCase(haystack: string, lowerNeedle: string): boolean {
  // A plain search first: the lowered copy only when it finds nothing.
  return haystack.includes(lowerNeedle) || haystack.toLowerCase().includes(lowerNeedle);
}
