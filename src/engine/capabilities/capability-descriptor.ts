/**
 * What a capability declares besides its behaviour: its vocabulary (the tools roles may name, each with
 * what it is for) and its settings (a zod schema, the default, the description, the CLI's option and the
 * VS Code key with its scope). The hosts derive everything a user sees from these (the CLI's parser and
 * `--help`, the VS Code settings reader, the New Role picker) and a test holds package.json's contribution
 * to them: adding a setting is one entry in its capability's descriptor, not a line in each host.
 */
import type * as z from 'zod';
import { ConfigurationError } from '../errors.js';
import type { Capability } from './capability.js';

export interface ToolDescriptor {
  /** As the model and role files see it (`WebFetch`). */
  readonly name: string;
  /** One line for the New Role picker: what a role with it may do ("read web pages from sites you allow"). */
  readonly purpose: string;
  /** False for a tool the engine gives by circumstance (a workflow loop's `ExitLoop`), never by a role's list. Default true. */
  readonly listedInRoles?: boolean;
}

/** VS Code's scope of a setting; `window` is VS Code's default, written in package.json as no scope at all. */
export type SettingScope = 'application' | 'machine' | 'window' | 'resource';

/**
 * Whose value counts in VS Code, so that a folder cannot loosen what protects the user: `any` the merged
 * value; `user` the user's own (global) value only; `off-wins` false in any scope wins; `on-wins` true in
 * any scope wins; `trusted` the merged value in a trusted folder, else the user's own.
 */
export type SettingTrust = 'any' | 'user' | 'off-wins' | 'on-wins' | 'trusted';

/** One CLI option of a setting; `run`, `mcp` and `serve` take every one. */
export interface CliOption<T> {
  /** `--allow-domain`. */
  readonly flag: string;
  /** `switch`: no value, sets `sets`; `value`: one value; `repeatable`: every occurrence kept, in order. */
  readonly kind: 'switch' | 'value' | 'repeatable';
  /** A switch's value for the setting. */
  readonly sets?: T;
  /** The value's name in `--help` (`<host>`). Default `<value>`. */
  readonly argument?: string;
  /** The setting's value from the text(s) given; throws an `InvalidSettingError` that says what is wrong. Default: the texts as they are. */
  readonly parse?: (texts: readonly string[]) => T;
  /** A value it takes, for value and repeatable options (the tests parse it). */
  readonly example?: string;
  /** What `--help` says of it: one paragraph, wrapped by the help. */
  readonly help: string;
}

export interface SettingDescriptor<T = unknown> {
  /** `agentTeam.allowedDomains`. */
  readonly key: string;
  /** The value's shape; package.json's `type` is derived from it (a test holds the two equal). */
  readonly schema: z.ZodType<T>;
  readonly default: T;
  /** The text of package.nls.json's description, which VS Code shows (a test holds the two equal). */
  readonly description: string;
  readonly scope: SettingScope;
  readonly trust: SettingTrust;
  /** Turns what the user stored (anything at all) into a value; default: the schema's parse, or the default when it refuses. */
  readonly read?: (stored: unknown) => T;
  /** Its CLI options. Default: none (a VS Code setting only). */
  readonly cli?: readonly CliOption<T>[];
}

// `any` here only lets descriptors of different value types share one list; each entry keeps its own type.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type SettingMap = Readonly<Record<string, SettingDescriptor<any>>>;

/** The values of a descriptor's settings, by name. */
export type SettingValues<Settings extends SettingMap> = {
  -readonly [Key in keyof Settings]: Settings[Key] extends SettingDescriptor<infer T> ? T : never;
};

export interface CapabilityDescriptor<Name extends string = string, Settings extends SettingMap = SettingMap> {
  /** Keys its settings in the value hosts parse (`settings.web.allowedDomains`). */
  readonly name: Name;
  readonly tools: readonly ToolDescriptor[];
  readonly settings: Settings;
  /** Builds the capability from its settings alone (read when it needs them: a host's may change between tasks); one that needs a host's part is built in `team/capabilities.ts`. Default: none. */
  create?(settings: () => SettingValues<Settings>): Capability;
}

/** A descriptor, with its name and settings' types kept exactly (so `settings.<name>.<setting>` is typed). */
export function defineCapability<const Name extends string, const Settings extends SettingMap>(
  descriptor: CapabilityDescriptor<Name, Settings>,
): CapabilityDescriptor<Name, Settings> {
  return descriptor;
}

/** One setting, its value type inferred from the schema. */
export function defineSetting<T>(setting: SettingDescriptor<T>): SettingDescriptor<T> {
  return setting;
}

/** A value given for a setting that it cannot take (a CLI option's text); the message says what it takes. */
export class InvalidSettingError extends ConfigurationError {
  override readonly name: string = 'InvalidSettingError';
}
