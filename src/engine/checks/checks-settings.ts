/** What a host says about checks (`agentTeam.checks`, `agentTeam.fixUntilGreen`; the CLI's `--checks`, `--fix-until-green`). */
export interface ChecksSettings {
  /** Whether checks run on proposals. Read at each use. */
  enabled(): boolean;
  /** Rounds the coordinator may send work back after new failures. Default 0: it is told the verdict only. */
  fixUntilGreen?(): number;
}
