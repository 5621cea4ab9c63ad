/**
 * `--model-prices <file>`: the user's prices, a JSON object of "provider/model": { input, output,
 * cachedInput } in US dollars per million tokens (the `agentTeam.modelPrices` format), over the list's.
 * A file that cannot be read or is not JSON is a configuration error (exit 2); a bad entry is named and
 * left out, the rest used.
 */
import { readFile } from 'node:fs/promises';
import { ConfigurationError, errorMessage, parseModelPrices, PriceTable } from '../engine/index.js';

export async function cliPriceTable(file: string | undefined, warn: (message: string) => void): Promise<PriceTable> {
  if (file === undefined) return new PriceTable();
  let value: unknown;
  try {
    const text = await readFile(file, 'utf8');
    if (text.length > 1024 * 1024) throw new Error('it is larger than 1 MB');
    value = JSON.parse(text);
  } catch (error) {
    throw new ConfigurationError(`--model-prices ${file}: ${errorMessage(error)}`);
  }
  const { prices, problems } = parseModelPrices(value, `--model-prices ${file}`);
  for (const problem of problems) warn(problem);
  return new PriceTable(prices);
}
