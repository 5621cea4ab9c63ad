/**
 * The ids the extension contributes in package.json, in a module of their own: the activation shell
 * (extension.ts) registers every one of them without loading the engine behind them.
 */

export const tasksViewId = 'agentTeam.tasks';
export const proposalScheme = 'agent-team-proposal';
export const teamParticipantId = 'agentTeam.team';
export const delegateToolName = 'agentTeam_delegate';

export const commandIds = {
  delegate: 'agentTeam.delegate',
  stopTask: 'agentTeam.stopTask',
  stopAll: 'agentTeam.stopAll',
  showTask: 'agentTeam.showTask',
  reviewChanges: 'agentTeam.reviewChanges',
  setApiKey: 'agentTeam.setApiKey',
  clearHistory: 'agentTeam.clearHistory',
  acceptFile: 'agentTeam.acceptFile',
  rejectFile: 'agentTeam.rejectFile',
  acceptHunk: 'agentTeam.acceptHunk',
  rejectHunk: 'agentTeam.rejectHunk',
  runWorkflow: 'agentTeam.runWorkflow',
  planAndDelegate: 'agentTeam.planAndDelegate',
  selectModel: 'agentTeam.selectModel',
  acceptAllChanges: 'agentTeam.acceptAllChanges',
  rejectAllChanges: 'agentTeam.rejectAllChanges',
  requestChanges: 'agentTeam.requestChanges',
  removeApiKey: 'agentTeam.removeApiKey',
  rerunAndCompare: 'agentTeam.rerunAndCompare',
  exportTrace: 'agentTeam.exportTrace',
  copyPrompt: 'agentTeam.copyPrompt',
  setRemoteAgentToken: 'agentTeam.setRemoteAgentToken',
  manageAllowedCommands: 'agentTeam.manageAllowedCommands',
  newRole: 'agentTeam.newRole',
  resumeRun: 'agentTeam.resumeRun',
  applyToBranch: 'agentTeam.applyToBranch',
  runChecks: 'agentTeam.runChecks',
  undoAccepted: 'agentTeam.undoAccepted',
  compactTask: 'agentTeam.compactTask',
} as const;
