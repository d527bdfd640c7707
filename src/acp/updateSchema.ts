// The `session/update` screen's schema, checked once per message and cheaply (refusals.ts). The SDK's
// schema of the params is an object whose `update` is a union of 19 intersections
// (`ToolCallUpdate.and({ sessionUpdate: literal("tool_call_update") })`, …): zod tries the members
// in order, building the issues of every member that fails before the one that matches, and merges
// both sides of each intersection value by value. A 20,000-update turn spent ~0.4 s of the extension
// host there (profile of issue 23). Here each kind gets its own schema, built once from the SDK's:
// the params object with `update` narrowed to the one member whose literal names that kind, and
// that member's intersection of two objects written as one object (`left.extend(right.shape)`, same
// output: each side strips the other's keys, the merge puts them back together).
// Only the matching member can accept an update (the literals differ), so a kind's schema accepts
// exactly what the full one does; a refusal is still described by the full schema (same first issue
// as before), and an update of an unknown kind goes to the full schema. test/unit/refusals.test.ts
// checks the equivalence on every update of the fuzz and burst generators.

/** The few zod (v4) internals read here; anything else, and the full schema is used as it is. */
interface ZodLike {
  safeParse(raw: unknown): { success: boolean; data?: unknown; error?: unknown };
  _zod?: { def?: { type?: string; left?: ZodLike; right?: ZodLike; values?: unknown[] } };
  shape?: Record<string, ZodLike>;
  options?: ZodLike[];
  extend?(shape: Record<string, ZodLike>): ZodLike;
}

export type UpdateSchema = Pick<ZodLike, 'safeParse'>;

/** `parse(params)`: the full schema's verdict, reached through the kind's own schema when it accepts. */
export function updateParser(full: UpdateSchema): (raw: unknown) => ReturnType<UpdateSchema['safeParse']> {
  const byKind = kindSchemas(full as ZodLike);
  return raw => {
    const update = raw && typeof raw === 'object' ? (raw as { update?: unknown }).update : undefined;
    const tag = update && typeof update === 'object' ? (update as { sessionUpdate?: unknown }).sessionUpdate : undefined;
    const schema = typeof tag === 'string' ? byKind.get(tag) : undefined;
    if (schema) {
      const parsed = schema.safeParse(raw);
      if (parsed.success) return parsed;
    }
    return full.safeParse(raw);
  };
}

/** One schema per update kind; empty when the SDK's schema is not shaped as expected. */
function kindSchemas(full: ZodLike): Map<string, ZodLike> {
  const out = new Map<string, ZodLike>();
  try {
    const union = full.shape?.update;
    if (full._zod?.def?.type !== 'object' || typeof full.extend !== 'function' || union?._zod?.def?.type !== 'union' || !Array.isArray(union.options)) return out;
    for (const member of union.options) {
      const def = member._zod?.def;
      const { left, right } = def ?? {};
      const literal = right?.shape?.sessionUpdate?._zod?.def;
      if (def?.type !== 'intersection' || !left || !right?.shape || literal?.type !== 'literal' || literal.values?.length !== 1 || typeof literal.values[0] !== 'string') return new Map();
      const tag = literal.values[0];
      if (out.has(tag)) return new Map();
      const plain = left._zod?.def?.type === 'object' && right._zod?.def?.type === 'object' && typeof left.extend === 'function' && Object.keys(right.shape).length === 1;
      out.set(tag, full.extend({ update: plain ? left.extend!(right.shape) : member }));
    }
  } catch {
    return new Map();
  }
  return out;
}
