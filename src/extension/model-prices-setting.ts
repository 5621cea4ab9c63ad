/**
 * `agentTeam.modelPrices`, as the price table tasks are costed with: read from the user's own settings at
 * each use (a change applies to the next tokens spent), built again only when the value changed, and each
 * bad entry logged once per change, not once per model call.
 */
import * as vscode from 'vscode';
import { parseModelPrices, PriceTable } from '../engine/index.js';
import { readSettings } from './configuration.js';

export class SettingPrices {
  private key: string | undefined;
  private table = new PriceTable();

  constructor(private readonly log: Pick<vscode.LogOutputChannel, 'warn'>) {}

  current(): PriceTable {
    const value = readSettings(vscode.workspace.isTrusted).modelPrices;
    const key = JSON.stringify(value ?? null);
    if (key !== this.key) {
      this.key = key;
      const { prices, problems } = parseModelPrices(value, 'agentTeam.modelPrices');
      for (const problem of problems) this.log.warn(problem);
      this.table = new PriceTable(prices);
    }
    return this.table;
  }
}
