/**
 * The `agentTeam.*` settings, read so that an untrusted folder cannot redirect the agents: in Restricted
 * Mode the settings that decide where prompts (and the API key) go are taken from the user's own
 * settings or the defaults only, never from the workspace (the lesson of CVE-2026-21852).
 */
import * as vscode from 'vscode';
import { isModelProvider, type ModelProvider } from '../engine/model/create-model.js';
import { vscodeLmProvider } from './language-model/language-model-errors.js';
import type { DelegationReach } from '../engine/delegation/delegation-reach.js';
import { defaultLimits, defaults } from '../engine/limits.js';
import { readLimit } from '../engine/limit-reading.js';
import { type InstructionSource, instructionSources, isInstructionSource } from '../engine/instructions/instruction-sources.js';

export const configurationSection = 'agentTeam';

/**
 * Settings a folder could use against the user. The manifest lists them as the extension's
 * `restrictedConfigurations` too; this module enforces it itself, whatever VS Code does.
 */
/** The providers the extension offers: the engine's own, and VS Code's language models (`vscode-lm`). */
export type ProviderName = ModelProvider | typeof vscodeLmProvider;

export function isProviderName(value: unknown): value is ProviderName {
  return value === vscodeLmProvider || isModelProvider(value);
}

export const restrictedSettingNames = ['provider', 'baseUrl', 'model', 'roleModels'] as const;

export interface AgentTeamSettings {
  /** The provider the user chose; undefined when nobody set `agentTeam.provider` (see `model-setup.ts`). */
  provider: ProviderName | undefined;
  /** `agentTeam.model`; '' means the provider's default. */
  model: string;
  /** `agentTeam.baseUrl`; '' means the provider's official API (or its environment variable). */
  baseUrl: string;
  /** `agentTeam.roleModels`: role name → model id. Default {}. */
  roleModels: Readonly<Record<string, string>>;
  /** `agentTeam.maxConcurrentTasks`. Default 4. */
  maxConcurrentTasks: number;
  /** `agentTeam.autoBackgroundSeconds`. Default 120. */
  autoBackgroundSeconds: number;
  /** `agentTeam.maxDepth`. Default 3. */
  maxDepth: number;
  /** `agentTeam.maxSubtasks`: sub-tasks per plan at most. Default 5. */
  maxSubtasks: number;
  /** `agentTeam.delegationReach`, from the user's own settings only. Default `own-tools`. */
  delegationReach: DelegationReach;
  /** `agentTeam.budgetTokens`: tokens (input + output) one run may spend; 0 means no budget. Default 0. */
  budgetTokens: number;
  /** `agentTeam.budgetUsd`, from the user's own settings only: dollars one run may spend; 0 means none. */
  budgetUsd: number;
  /** `agentTeam.historyRetentionDays`: runs older than this are removed from the run log (1–3650). */
  historyRetentionDays: number;
  /** `agentTeam.modelPrices`, from the user's own settings only: prices over the built-in list (checked by the engine). */
  modelPrices: unknown;
  /** `agentTeam.confirmFanOutAbove`: more subagents than this in one turn ask the user first. Default 8. */
  confirmFanOutAbove: number;
  /** `agentTeam.allowedCommands`, from the user's own settings only: commands `Bash` runs without asking. */
  allowedCommands: string[];
  /** `agentTeam.sandbox`, from the user's own settings only: `auto` runs commands in the OS sandbox where there is one. */
  sandbox: 'auto' | 'off';
  /** `agentTeam.commandNetwork`, from the user's own settings only: `on` gives every command the network. */
  commandNetwork: 'off' | 'on';
  /** `agentTeam.networkCommands`, from the user's own settings only: commands that get the network. */
  networkCommands: string[];
  /** `agentTeam.passEnvironment`, from the user's own settings only: variables commands get besides the allowlist's. */
  passEnvironment: string[];
  /** `agentTeam.allowedDomains`, from the user's own settings only: sites WebFetch reads without asking. */
  allowedDomains: string[];
  /** `agentTeam.instructionFiles`: the sources of the instruction files agents follow. Default: all. */
  instructionFiles: InstructionSource[];
  /** `agentTeam.hooks`: whether the settings files' hooks run; off in any scope wins. Default true. */
  hooks: boolean;
  /** `agentTeam.checks`: whether the repository's checks run on proposals by themselves; off in any scope wins. Default true. */
  checks: boolean;
  /** `agentTeam.fixUntilGreen`, from the user's own settings only: rounds the coordinator may send a new failure back (0–5). Default 0. */
  fixUntilGreen: number;
  /** `agentTeam.approvePlan`: the plan is put to the user before any subagent starts; on in any scope wins. Default false. */
  approvePlan: boolean;
}

export const defaultSettings: Readonly<Omit<AgentTeamSettings, 'provider' | 'roleModels'>> = Object.freeze({
  model: '',
  baseUrl: '',
  ...defaultLimits,
  delegationReach: defaults.delegationReach,
  allowedCommands: [],
  sandbox: 'auto',
  commandNetwork: 'off',
  networkCommands: [],
  passEnvironment: [],
  allowedDomains: [],
  instructionFiles: [...instructionSources],
  hooks: true,
  checks: true,
  fixUntilGreen: 0,
  approvePlan: false,
  budgetUsd: 0,
  modelPrices: undefined,
});

/** Reads the settings; `trusted` false ignores workspace and folder values of the restricted settings. */
export function readSettings(trusted: boolean = vscode.workspace.isTrusted): AgentTeamSettings {
  const configuration = vscode.workspace.getConfiguration(configurationSection);
  const restricted = <T>(name: (typeof restrictedSettingNames)[number]): T | undefined => readRestricted<T>(configuration, name, trusted);
  const provider = explicitProvider(configuration, trusted);
  return {
    provider,
    model: text(restricted<unknown>('model')) ?? defaultSettings.model,
    baseUrl: text(restricted<unknown>('baseUrl')) ?? defaultSettings.baseUrl,
    roleModels: roleModelsOf(restricted<unknown>('roleModels')),
    // Each limit in the range of the engine's table: below it (or not a number) the default, above it the maximum.
    maxConcurrentTasks: readLimit('maxConcurrentTasks', configuration.get<unknown>('maxConcurrentTasks')),
    autoBackgroundSeconds: readLimit('autoBackgroundSeconds', configuration.get<unknown>('autoBackgroundSeconds')),
    maxDepth: readLimit('maxDepth', configuration.get<unknown>('maxDepth')),
    maxSubtasks: readLimit('maxSubtasks', configuration.get<unknown>('maxSubtasks')),
    // A folder's own settings must not widen what its agents may do: only the user's value counts.
    delegationReach: configuration.inspect<unknown>('delegationReach')?.globalValue === 'any' ? 'any' : defaultSettings.delegationReach,
    budgetTokens: readLimit('budgetTokens', configuration.get<unknown>('budgetTokens')),
    // A folder must not loosen a money budget or price its models at nothing: only the user's values count.
    budgetUsd: positiveDollars(configuration.inspect<unknown>('budgetUsd')?.globalValue),
    modelPrices: configuration.inspect<unknown>('modelPrices')?.globalValue,
    historyRetentionDays: readLimit('historyRetentionDays', configuration.get<unknown>('historyRetentionDays')),
    confirmFanOutAbove: readLimit('confirmFanOutAbove', configuration.get<unknown>('confirmFanOutAbove')),
    // A folder's settings must not allow its own commands: only the user's settings count.
    allowedCommands: stringList(configuration.inspect<unknown>('allowedCommands')?.globalValue),
    // Likewise the sandbox and the network: a folder must not loosen the boundary around its own commands.
    sandbox: configuration.inspect<unknown>('sandbox')?.globalValue === 'off' ? 'off' : defaultSettings.sandbox,
    commandNetwork: configuration.inspect<unknown>('commandNetwork')?.globalValue === 'on' ? 'on' : defaultSettings.commandNetwork,
    networkCommands: stringList(configuration.inspect<unknown>('networkCommands')?.globalValue),
    passEnvironment: stringList(configuration.inspect<unknown>('passEnvironment')?.globalValue),
    // A folder must not open its own agents' way out to the network: only the user's settings count.
    allowedDomains: stringList(configuration.inspect<unknown>('allowedDomains')?.globalValue),
    // Any scope: a folder may only narrow what its agents read, and an untrusted one is read not at all.
    instructionFiles: sourceList(configuration.get<unknown>('instructionFiles')),
    // A folder may turn its hooks off, never back on when the user turned them off.
    hooks: hooksOn(configuration.inspect<unknown>('hooks')),
    // Checks are the repository's code: a folder may turn them off, never back on when the user did.
    checks: hooksOn(configuration.inspect<unknown>('checks')),
    // More rounds cost the user's money: a folder must not raise them.
    fixUntilGreen: fixRounds(configuration.inspect<unknown>('fixUntilGreen')?.globalValue),
    // A folder may ask for approval, never skip the approval the user asked for.
    approvePlan: onInAnyScope(configuration.inspect<unknown>('approvePlan')),
  };
}

/** Whole rounds from 0 to `maxFixUntilGreen`; anything else is 0. */
function fixRounds(value: unknown): number {
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? Math.min(value, maxFixUntilGreen) : 0;
}

/** Most rounds `agentTeam.fixUntilGreen` allows (the manifest's maximum). */
export const maxFixUntilGreen = 5;

function positiveDollars(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : 0;
}

/** True when any scope turns it on: the user's yes cannot be undone by a folder, and a folder may add its own. */
function onInAnyScope(inspected: { globalValue?: unknown; workspaceValue?: unknown; workspaceFolderValue?: unknown } | undefined): boolean {
  return [inspected?.globalValue, inspected?.workspaceValue, inspected?.workspaceFolderValue].includes(true);
}

function hooksOn(inspected: { globalValue?: unknown; workspaceValue?: unknown; workspaceFolderValue?: unknown } | undefined): boolean {
  return ![inspected?.globalValue, inspected?.workspaceValue, inspected?.workspaceFolderValue].includes(false);
}

/**
 * One restricted setting: everything when trusted; when not, only the user's own (global) value or the
 * default. `inspect` is used rather than `get` so that the rule holds whatever VS Code merges.
 */
export function readRestricted<T>(configuration: vscode.WorkspaceConfiguration, name: string, trusted: boolean): T | undefined {
  if (trusted) return configuration.get<T>(name);
  const inspected = configuration.inspect<T>(name);
  return inspected?.globalValue ?? inspected?.defaultValue;
}

/** The provider only when someone chose it (user settings, or the workspace when trusted). */
function explicitProvider(configuration: vscode.WorkspaceConfiguration, trusted: boolean): ProviderName | undefined {
  const inspected = configuration.inspect<unknown>('provider');
  const chosen = trusted
    ? (inspected?.workspaceFolderValue ?? inspected?.workspaceValue ?? inspected?.globalValue)
    : inspected?.globalValue;
  return isProviderName(chosen) ? chosen : undefined;
}

/** True when a change touches a setting this module reads. */
export function affectsAgentTeam(event: vscode.ConfigurationChangeEvent): boolean {
  return event.affectsConfiguration(configurationSection);
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value.trim() : undefined;
}

function roleModelsOf(value: unknown): Record<string, string> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return {};
  const result: Record<string, string> = {};
  for (const [role, model] of Object.entries(value as Record<string, unknown>)) {
    if (typeof model === 'string' && model.trim() !== '') result[role] = model.trim();
  }
  return result;
}

/** The known sources of a list setting; not a list at all: every source (the default). */
function sourceList(value: unknown): InstructionSource[] {
  return Array.isArray(value) ? [...new Set(value.filter(isInstructionSource))] : [...instructionSources];
}

/** The non-empty strings of a setting that should be a list of them; anything else is left out. */
function stringList(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  return value.filter((item): item is string => typeof item === 'string' && item.trim() !== '').map((item) => item.trim());
}
