// The same agent run twice differs by its model or its mode: what a conversation with that agent
// offers (its config option of category `model`, else its mode picker) is what a run can choose.
import type { SessionConfigOption, SessionMode } from '@agentclientprotocol/sdk/unstable';
import { modeControl } from '../agentModes';

export interface RunVariant {
  readonly label: string;
  readonly option?: { readonly configId: string; readonly value: string };
  readonly mode?: string;
}

export function runVariants(meta: {
  readonly modes?: { readonly currentModeId: string; readonly availableModes: readonly SessionMode[] };
  readonly configOptions: readonly SessionConfigOption[];
}): RunVariant[] {
  const model = meta.configOptions.find(o => o.category === 'model' && o.type === 'select');
  const out: RunVariant[] = [];
  if (model?.type === 'select') {
    for (const entry of model.options) {
      for (const o of 'group' in entry ? entry.options : [entry]) out.push({ label: o.name, option: { configId: model.id, value: o.value } });
    }
  }
  const modes = modeControl(meta);
  for (const m of modes?.modes ?? []) {
    out.push(modes!.via === 'config' ? { label: m.name, option: { configId: modes!.configId!, value: m.id } } : { label: m.name, mode: m.id });
  }
  return out;
}
