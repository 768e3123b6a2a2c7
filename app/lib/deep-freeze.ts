/**
 * Freezes a value read from the database (plain objects, arrays, dates) through and through:
 * what a server keeps for every request is shared, and a request that tried to change it would
 * change it for all the others. In a module (strict mode) such a write throws.
 */
export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}
