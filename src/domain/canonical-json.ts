// One JSON text per value, whatever order its keys were built in, so equal inputs fingerprint
// equally. Keys are sorted (by UTF-16 code unit, like Array.prototype.sort) at every depth and
// undefined members are dropped; everything else follows JSON.stringify (toJSON is honoured,
// undefined in an array becomes null, non-finite numbers become null).

function canonical(value: unknown): unknown {
  const json =
    value !== null && typeof value === 'object' && 'toJSON' in value && typeof value.toJSON === 'function' ? value.toJSON() : value;
  if (Array.isArray(json)) return json.map((item) => (item === undefined ? null : canonical(item)));
  if (json === null || typeof json !== 'object') return json;
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(json).sort()) {
    const member = (json as Record<string, unknown>)[key];
    if (member !== undefined && typeof member !== 'function' && typeof member !== 'symbol') sorted[key] = canonical(member);
  }
  return sorted;
}

export function canonicalJson(value: unknown): string {
  return JSON.stringify(canonical(value)) ?? 'null';
}
