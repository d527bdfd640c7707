// A host message as it goes to a chat page (the side bar, an editor tab, a helper's tab): the ones
// that can be megabytes go as their JSON's UTF-8 bytes (protocol.ts `packed`, decision 0032).
import type { HostMessage } from '../common/protocol';

const encoder = new TextEncoder();
const PACKED: ReadonlySet<HostMessage['type']> = new Set(['transcript/ops', 'state/reset', 'turn/items']);

export function toPage(message: HostMessage): HostMessage {
  return PACKED.has(message.type) ? { type: 'packed', json: encoder.encode(JSON.stringify(message)) } : message;
}
