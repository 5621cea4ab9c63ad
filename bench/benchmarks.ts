/** Every benchmark, in the order the table lists them. */
import { delegationOverhead } from './b1-delegation-overhead.js';
import { parallelEfficiency } from './b2-parallel-efficiency.js';
import { stopLatency } from './b3-stop-latency.js';
import { sidebarWithLongHistory } from './b4-sidebar.js';
import { installCost } from './b5-install-cost.js';
import { memory } from './b6-memory.js';
import { search } from './b7-search.js';
import { leanCoordinator } from './b8-lean-coordinator.js';
import { scratchCopy } from './b9-scratch-copy.js';
import { workflowOverhead } from './b10-workflow-overhead.js';
import { plannerOverhead } from './b11-planner-overhead.js';
import { replyLatency } from './b12-reply-latency.js';
import { sandboxCost } from './b13-sandbox-cost.js';
import { runLogCost } from './b14-run-log.js';
import { editorStaysResponsive } from './b15-event-loop.js';
import { wordsAppear } from './b16-words-appear.js';
import { proposalMerge } from './b17-proposal-merge.js';
import { contextCompaction } from './b18-context-compaction.js';
import { scalingCurves } from './c1-scaling.js';
import { checksVerdict } from './b19-checks-verdict.js';
import type { Benchmark } from './support/types.js';

export const benchmarks: readonly Benchmark[] = [
  delegationOverhead,
  parallelEfficiency,
  stopLatency,
  sidebarWithLongHistory,
  installCost,
  memory,
  search,
  leanCoordinator,
  scratchCopy,
  workflowOverhead,
  plannerOverhead,
  replyLatency,
  sandboxCost,
  runLogCost,
  editorStaysResponsive,
  wordsAppear,
  proposalMerge,
  contextCompaction,
  checksVerdict,
  scalingCurves,
];
