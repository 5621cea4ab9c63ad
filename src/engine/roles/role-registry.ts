import { type Clock, systemClock } from '../clock.js';
import { ConfigurationError } from '../errors.js';
import { Emitter } from '../util/emitter.js';
import { builtInRoles } from './built-in/index.js';
import { loadRoles } from './load-roles.js';
import type { KnownTools } from './known-tools.js';
import type { RoleRegistryOptions } from './role-registry-options.js';
import { type RoleFileSource, type RoleWatch } from './role-file-source.js';
import { describeRoster } from './roster.js';
import { type RoleDefinition, type RoleDiagnostic, type RoleLoadResult } from './types.js';

export type { RoleRegistryOptions } from './role-registry-options.js';

export type RoleChangeListener = (result: RoleLoadResult) => void;

/**
 * The roles available in one workspace: built-ins plus role files, kept current as files change. Before the
 * first `load()` it holds the built-ins alone.
 */
export class RoleRegistry {
  private readonly source: RoleFileSource;
  /** What role files (and the workflows and prompt files read beside them) may name as tools. */
  readonly knownTools: KnownTools;
  private readonly userSource: RoleFileSource | undefined;
  private readonly userPromptsDirectory: string | undefined;
  private readonly watch?: RoleWatch;
  private readonly clock: Clock;
  private readonly debounceMs: number;
  private readonly builtIns: readonly RoleDefinition[];
  private current: RoleLoadResult;
  private fingerprint: string;
  /** What listeners threw while hearing the latest change; the reload that caused it rejects with the first. */
  private listenerErrors: unknown[] = [];
  private readonly changes = new Emitter<RoleLoadResult>((error) => this.listenerErrors.push(error));
  private loading: Promise<unknown> = Promise.resolve();
  private stopWatching?: () => void;
  private cancelDebounce?: () => void;
  private disposed = false;

  constructor(options: RoleRegistryOptions) {
    this.source = options.source;
    this.knownTools = options.knownTools;
    this.userSource = options.userSource;
    this.userPromptsDirectory = options.userPromptsDirectory;
    this.watch = options.watch;
    this.clock = options.clock ?? systemClock;
    this.debounceMs = options.debounceMs ?? 200;
    this.builtIns = options.builtIns ?? builtInRoles;
    this.current = { roles: this.builtIns, diagnostics: [] };
    this.fingerprint = fingerprintOf(this.current);
  }

  /** Reads the role files and starts watching them (when a watcher was given). */
  load(): Promise<RoleLoadResult> {
    if (this.watch && !this.stopWatching && !this.disposed) {
      this.stopWatching = this.watch(() => this.scheduleReload());
    }
    return this.reload();
  }

  /**
   * Reads the role files again now. Loads run one at a time, in call order, so the last one to finish
   * reflects the latest files. Listeners hear of the result only when roles or diagnostics changed; a
   * listener's error is rethrown here after the others have run.
   */
  reload(): Promise<RoleLoadResult> {
    const next = this.loading.then(async () => {
      const result = await loadRoles(this.source, this.knownTools, this.builtIns, this.userSource, this.userPromptsDirectory);
      if (!this.disposed) this.apply(result);
      return this.current;
    });
    this.loading = next.catch(() => undefined);
    return next;
  }

  get(name: string): RoleDefinition | undefined {
    return this.current.roles.find((role) => role.name === name);
  }

  /** Like `get`, but an unknown name is a `ConfigurationError` that lists the roles there are. */
  require(name: string): RoleDefinition {
    const role = this.get(name);
    if (role) return role;
    const known = this.current.roles.map((candidate) => candidate.name).join(', ');
    throw new ConfigurationError(`Unknown role '${name}'. Available roles: ${known}.`);
  }

  list(): readonly RoleDefinition[] {
    return this.current.roles;
  }

  get diagnostics(): readonly RoleDiagnostic[] {
    return this.current.diagnostics;
  }

  /** The roster text for the `Agent` tool's description; rebuild it on `onDidChange`. */
  describeRoster(): string {
    return describeRoster(this.current.roles);
  }

  /** Calls `listener` with the new roles and diagnostics whenever they change. Returns a function to unsubscribe. */
  onDidChange(listener: RoleChangeListener): () => void {
    return this.changes.subscribe(listener);
  }

  /** Stops watching and drops listeners. Loads still in flight finish without effect. */
  dispose(): void {
    this.disposed = true;
    this.cancelDebounce?.();
    this.cancelDebounce = undefined;
    this.stopWatching?.();
    this.stopWatching = undefined;
    this.changes.clear();
  }

  private scheduleReload(): void {
    if (this.disposed) return;
    this.cancelDebounce?.();
    this.cancelDebounce = this.clock.setTimer(() => {
      this.cancelDebounce = undefined;
      // Nobody awaits a watcher-triggered load; a listener's error must not become an unhandled rejection.
      this.reload().catch(() => undefined);
    }, this.debounceMs);
  }

  private apply(result: RoleLoadResult): void {
    const fingerprint = fingerprintOf(result);
    if (fingerprint === this.fingerprint) return;
    this.current = result;
    this.fingerprint = fingerprint;
    this.listenerErrors = [];
    this.changes.emit(result);
    if (this.listenerErrors.length > 0) throw this.listenerErrors[0];
  }
}

function fingerprintOf(result: RoleLoadResult): string {
  return JSON.stringify(result);
}
