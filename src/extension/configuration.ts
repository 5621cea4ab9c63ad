/**
 * The `agentTeam.*` settings, read as the capabilities' descriptors declare them (setting-reader.ts): an
 * untrusted folder cannot redirect the agents: in Restricted Mode the settings that decide where prompts
 * (and the API key) go are taken from the user's own settings or the defaults only, never from the
 * workspace (the lesson of CVE-2026-21852).
 */
import * as vscode from 'vscode';
import { capabilityDescriptors, type CapabilitySettings, declaredSettings, isModelProvider, type ModelProvider } from '../engine/index.js';
import { vscodeLmProvider } from './language-model/language-model-errors.js';
import { configurationSection, readCapabilitySettings } from './setting-reader.js';

export { configurationSection } from './setting-reader.js';
export { maxFixUntilGreen } from '../engine/index.js';

/** The providers the extension offers: the engine's own, and VS Code's language models (`vscode-lm`). */
export type ProviderName = ModelProvider | typeof vscodeLmProvider;

export function isProviderName(value: unknown): value is ProviderName {
  return value === vscodeLmProvider || isModelProvider(value);
}

/**
 * Settings a folder could use against the user (their descriptors' trust is `trusted`). The manifest lists
 * them as the extension's `restrictedConfigurations` too; the reader enforces it itself, whatever VS Code does.
 */
export const restrictedSettingNames: readonly string[] = declaredSettings(capabilityDescriptors)
  .filter(({ setting }) => setting.trust === 'trusted')
  .map(({ name }) => name);

type UnionToIntersection<Union> = (Union extends unknown ? (value: Union) => void : never) extends (value: infer All) => void ? All : never;
/** Every capability's settings side by side: their names are their VS Code keys', so none is another's. */
type FlatSettings = UnionToIntersection<CapabilitySettings[keyof CapabilitySettings]>;

/**
 * Every setting by its name (each one's default and meaning in its capability's descriptor), and all of them
 * keyed by capability (`capabilities`, the value the engine's capabilities read).
 */
export type AgentTeamSettings = Omit<FlatSettings, 'provider'> & {
  /** The provider the user chose; undefined when nobody set `agentTeam.provider` (see `model-setup.ts`). */
  provider: ProviderName | undefined;
  capabilities: CapabilitySettings;
};

/** Reads the settings; `trusted` false ignores workspace and folder values of the restricted settings. */
export function readSettings(trusted: boolean = vscode.workspace.isTrusted): AgentTeamSettings {
  const configuration = vscode.workspace.getConfiguration(configurationSection);
  const capabilities = readCapabilitySettings(configuration, trusted);
  const flat = Object.assign({}, ...Object.values(capabilities)) as FlatSettings;
  // The engine tells an unset price list from an empty one: a stored value only (the user's own).
  const modelPrices = configuration.inspect<unknown>('modelPrices')?.globalValue;
  return { ...flat, provider: explicitProvider(configuration, trusted), modelPrices, capabilities };
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
