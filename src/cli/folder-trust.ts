/**
 * Whether the folder the CLI runs in is trusted: whether its own executable configuration (its settings
 * files' hooks, its role files' MCP servers and remote agents) may run. A folder that defines none needs
 * no trust. Otherwise: `--trust` trusts it for this invocation; the trust store, when the user said yes
 * to exactly this configuration (its hash); else, where someone can be asked (`run` on a terminal), the
 * question lists exactly what would run, and a yes is remembered. Nobody to ask: refused, and stderr says
 * at the start exactly what does not run and how to allow it.
 */
import { realpath } from 'node:fs/promises';
import { type FolderConfiguration, type FolderItemKind, readFolderConfiguration, type RoleDefinition } from '../engine/index.js';
import { describeFolderItems, shown } from './folder-items-text.js';
import { readTrustStore, recordTrust, trustStorePath } from './trust-store.js';

/** Asks the user whether the folder may run what `listing` shows; resolves true for a yes. */
export type TrustQuestion = (listing: string) => Promise<boolean>;

export interface FolderTrustOptions {
  /** The workspace root. */
  root: string;
  /** The roles in effect. */
  roles: readonly RoleDefinition[];
  /** `--trust`: trusted for this invocation, not remembered. Default false. */
  trustFlag?: boolean;
  /** Who can be asked (`run` on a terminal). Default: nobody; an untrusted folder's configuration is refused. */
  ask?: TrustQuestion;
  environment: Readonly<Record<string, string | undefined>>;
  stderr: { write(text: string): void };
  /** Default: the system's clock. */
  now?: () => Date;
  /**
   * Kinds this invocation never runs (the checks, without `--checks`): a folder whose only items are of
   * these needs no trust, so a plain project with a `test` script is neither asked nor warned about on
   * every run. A trust given still covers every item. Default: none.
   */
  unusedKinds?: readonly FolderItemKind[];
}

export interface FolderTrust {
  trusted: boolean;
  configuration: FolderConfiguration;
}

export async function decideFolderTrust(options: FolderTrustOptions): Promise<FolderTrust> {
  const configuration = await readFolderConfiguration({ root: options.root, roles: options.roles });
  const used = configuration.items.filter((item) => !(options.unusedKinds ?? []).includes(item.kind));
  if (options.trustFlag) return { trusted: true, configuration };
  // Nothing of this invocation needs trust; what it does not run stays untrusted (left out of the items).
  if (used.length === 0) return { trusted: true, configuration: { ...configuration, items: used } };
  const warn = (message: string) => options.stderr.write(`agent-team: ${shown(message)}\n`);
  const folder = await realpath(options.root);
  const store = trustStorePath(options.environment);
  const earlier = (await readTrustStore(store, warn))[folder];
  if (earlier?.hash === configuration.hash) return { trusted: true, configuration };
  const changed = earlier === undefined ? '' : ' (it changed since you trusted it)';
  const listing = describeFolderItems(configuration.items);
  if (options.ask) {
    options.stderr.write(`agent-team: this folder's own configuration${changed} would run:\n${listing}`);
    if (await options.ask(listing)) {
      // A yes stands for this run even where it cannot be remembered (the store's folder is another user's).
      await recordTrust(store, folder, configuration.hash, (options.now ?? (() => new Date()))(), warn).catch((error: unknown) =>
        warn(`trusted for this run only: ${error instanceof Error ? error.message : String(error)}`),
      );
      return { trusted: true, configuration };
    }
    warn('not trusted: none of these runs.');
    return { trusted: false, configuration };
  }
  options.stderr.write(
    `agent-team: this folder is not trusted${changed}: its own configuration does not run:\n${listing}` +
      `agent-team: to allow it, run \`agent-team trust --workspace ${shown(JSON.stringify(options.root))}\` (remembered until it changes) or pass --trust (this run only).\n`,
  );
  return { trusted: false, configuration };
}
