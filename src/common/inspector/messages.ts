// The messages between the protocol inspector's webview and the host (both bundles import this).
import type { TrafficFilter } from './filter';
import type { TrafficRow } from './traffic';

/** A request that got its response: its row's new fields. */
export interface PairUpdate { readonly seq: number; readonly pair: number; readonly latency: number }

export type InspectorHostMessage =
  /** Everything anew: the rows kept, the filter in force, whether recording is on. */
  | { type: 'inspector/reset'; rows: TrafficRow[]; filter: TrafficFilter; visible: number[] | null; recording: boolean; note: string }
  /** New rows (and requests paired since); `first`: the oldest seq still kept; `visible`: which new rows pass the filter (null: no filter). */
  | { type: 'inspector/rows'; rows: TrafficRow[]; paired: PairUpdate[]; first: number; visible: number[] | null }
  /** The seqs that pass the filter just set (null: all). */
  | { type: 'inspector/view'; filter: TrafficFilter; visible: number[] | null }
  /** One message expanded. */
  | { type: 'inspector/message'; seq: number; text: string; truncated: boolean; size: number }
  | { type: 'inspector/recording'; recording: boolean; note: string };

export type InspectorViewMessage =
  | { type: 'inspector/ready' }
  | { type: 'inspector/filter'; filter: TrafficFilter }
  | { type: 'inspector/open'; seq: number }
  | { type: 'inspector/copy'; seq: number }
  | { type: 'inspector/export' }
  | { type: 'inspector/clear' }
  | { type: 'inspector/record'; on: boolean };

/** Validates a message from the inspector webview (untrusted). */
export function parseInspectorMessage(raw: unknown): InspectorViewMessage | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const m = raw as Record<string, unknown>;
  const seq = typeof m.seq === 'number' && Number.isSafeInteger(m.seq) ? m.seq : undefined;
  switch (m.type) {
    case 'inspector/ready': case 'inspector/export': case 'inspector/clear': return { type: m.type };
    case 'inspector/filter': return typeof m.filter === 'object' && m.filter !== null ? { type: m.type, filter: m.filter as TrafficFilter } : undefined;
    case 'inspector/open': case 'inspector/copy': return seq !== undefined ? { type: m.type, seq } : undefined;
    case 'inspector/record': return typeof m.on === 'boolean' ? { type: m.type, on: m.on } : undefined;
    default: return undefined;
  }
}
