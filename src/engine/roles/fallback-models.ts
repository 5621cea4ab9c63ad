/**
 * A role file's `fallbackModels`: the models its tasks go on with, in order, when the role's model is down
 * (model failover: model/failover-model.ts). Read strictly: a value that cannot work is an error naming the
 * field. A Copilot agent file's `model` may be a list ("models to try in order"): the models after its
 * first are the fallbacks, unless `fallbackModels` names them.
 */

/** The front-matter fields this file reads, for the role file formats' lists of known fields. */
export const fallbackModelFields = ['fallbackModels'] as const;

/** More than this many fallbacks is a mistake (each one waits out its retries before the next). */
export const maxFallbackModels = 5;

/** Longer than any provider's model id; a longer value is not one. */
const maxModelIdLength = 200;

/**
 * The fallback model ids, trimmed, each once, as written (aliases such as `sonnet` are resolved where the
 * role's `model` is); undefined when there are none. Problems go to `errorAt` with the field they are about.
 */
export function readFallbackModels(
  fields: Readonly<Record<string, unknown>>,
  errorAt: (field: string, message: string) => void,
): string[] | undefined {
  const value = fields.fallbackModels;
  if (value === undefined || value === null) return copilotFallbacks(fields.model);
  const entries = typeof value === 'string' ? [value] : value;
  const example = 'a list of model ids, e.g. fallbackModels: [claude-haiku-4-5, claude-opus-4-5]';
  if (!Array.isArray(entries) || !entries.every((entry) => typeof entry === 'string' && entry.trim() !== '')) {
    errorAt('fallbackModels', `'fallbackModels' must be ${example}`);
    return undefined;
  }
  const models = [...new Set(entries.map((entry: string) => entry.trim()))];
  const unusable = models.find(
    (model) => model.length > maxModelIdLength || /[\s\p{Cc}]/u.test(model) || model.toLowerCase() === 'inherit',
  );
  if (unusable !== undefined) {
    errorAt('fallbackModels', `'fallbackModels' holds '${unusable.slice(0, 60)}', which is not a model id: write ${example}`);
    return undefined;
  }
  if (models.length > maxFallbackModels) {
    errorAt(
      'fallbackModels',
      `'fallbackModels' names ${models.length} models; at most ${maxFallbackModels} (each waits out its retries before the next is tried)`,
    );
    return undefined;
  }
  return models.length === 0 ? undefined : models;
}

/** Copilot's `model: [first, second, …]`: the models after the first, as far as they are usable ids. */
function copilotFallbacks(model: unknown): string[] | undefined {
  if (!Array.isArray(model)) return undefined;
  const rest = model
    .slice(1)
    .filter((entry): entry is string => typeof entry === 'string' && entry.trim() !== '' && !/[\s\p{Cc}]/u.test(entry.trim()));
  const models = [...new Set(rest.map((entry) => entry.trim()))].slice(0, maxFallbackModels);
  return models.length === 0 ? undefined : models;
}
