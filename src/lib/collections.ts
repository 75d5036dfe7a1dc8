/** Appends to the list a map holds under `key`, creating it on first use (no copy per append). */
export function pushTo<K, V>(map: Map<K, V[]>, key: K, ...values: V[]): void {
  const list = map.get(key);
  if (list) list.push(...values);
  else map.set(key, values);
}
