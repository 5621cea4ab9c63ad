// The headless CLI; filled in by the delegation issue.
process.stdout.write('agent-team: not built yet\n');
