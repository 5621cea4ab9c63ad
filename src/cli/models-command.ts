/**
 * `agent-team models`: what a run uses when it names no model, and the prices cost is counted at: the
 * built-in list with its date (so a user can tell how old it is), tier estimates marked, and the user's
 * own prices (`--model-prices <file>`) over it.
 */
import { defaultModelIds, listPrices, listPricesAsOf, type ModelPrice, modelProviders } from '../engine/index.js';
import type { ModelsArguments } from './argument-types.js';
import type { CommandOutput } from './agents-command.js';
import { cliPriceTable } from './price-file.js';
import { terminalSafe } from './terminal-text.js';

export async function modelsCommand(args: ModelsArguments, output: CommandOutput): Promise<number> {
  const line = (text: string) => output.stdout.write(`${terminalSafe(text)}\n`);
  const prices = await cliPriceTable(args.modelPrices, (message) => output.stderr.write(`agent-team: ${terminalSafe(message)}\n`));
  line('Default models (when --model names none):');
  for (const provider of modelProviders) line(`  ${provider.padEnd(10)} ${defaultModelIds[provider]}`);
  line('');
  line(`Prices in US dollars per million tokens (input / output / cached input), list of ${listPricesAsOf}:`);
  const entries = listPrices();
  const width = Math.max(...entries.map((entry) => entry.model.length));
  for (const entry of entries) {
    // The user's price for a listed model wins: show the price that is used.
    const used = prices.priceOf(entry.model) ?? entry.price;
    const own =
      used !== entry.price
        ? '  (your price, --model-prices)'
        : entry.tierEstimate
          ? '  (estimate: its tier\u2019s price, not yet checked)'
          : '';
    line(`  ${entry.model.padEnd(width)}  ${describePrice(used)}${own}`);
  }
  line('');
  line('A model not listed costs "unknown", and --budget-usd refuses to start with it: add its price with');
  line('--model-prices <file>, a JSON file of {"provider/model": {"input": 3, "output": 15, "cachedInput": 0.3}}');
  line('(in VS Code: the agentTeam.modelPrices setting).');
  return 0;
}

function describePrice(price: ModelPrice): string {
  return `$${price.input} / $${price.output} / $${price.cachedInput ?? price.input}`;
}
