/** Readers of stored setting values that keep what is usable of a value a user wrote by hand. */

/** The non-empty strings of a value that should be a list of them, trimmed; anything else is left out (not a list: none). */
export function storedStringList(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  return value.filter((item): item is string => typeof item === 'string' && item.trim() !== '').map((item) => item.trim());
}
