/**
 * B16, words appear at once: from a chunk of the model's streamed text reaching the engine to its words
 * in the user's view, (a) in the sidebar: in its DOM, ready for the next frame's paint, the issue's
 * measure (b16/sidebar-words.ts: the real provider, outbox, message channel as far as Node has it, and
 * webview code in jsdom, its frames on b16/frame-clock.ts), beside when they reached the webview, the start
 * of the first 60 Hz frame whose paint includes them, and the share painted in the first frame after they
 * reached it; (b) in the CLI's output
 * (b16/cli-words.ts: the terminal view and the JSON events, with a fake stdout that notes each write).
 *
 * The model streams chunks 20 ms apart (a provider's pace: tokens every 10-50 ms), a few words each,
 * in a fresh team per answer. Targets on p95: the sidebar's DOM ≤ 17 ms (the next frame at
 * 60 Hz), the CLI ≤ 5 ms. Quick mode: small sizes, no target.
 */
import { measureCliWords } from './b16/cli-words.js';
import { measureSidebarWords } from './b16/sidebar-words.js';
import { percentile } from './support/stats.js';
import type { Benchmark, BenchmarkContext, BenchmarkOutcome, Measurement } from './support/types.js';

const gapMs = 20;

/** Targets on p95 (issue 43): the sidebar within one frame at 60 Hz, the CLI's output within 5 ms. */
const sidebarTargetMs = 17;
const cliTargetMs = 5;

function figure(name: string, values: number[], quick: boolean, note?: string, target = cliTargetMs): Measurement {
  const p50 = percentile(values, 0.5);
  const p95 = percentile(values, 0.95);
  return {
    name,
    value: p95,
    unit: 'ms',
    ...(quick ? {} : { target }),
    display: `p50 ${p50.toFixed(1)} / p95 ${p95.toFixed(1)} ms`,
    note: note ?? 'target on p95',
  };
}

/** `answers` answers of `chunks` chunks each, their latencies together. */
async function repeat(answers: number, measure: () => Promise<number[]>): Promise<number[]> {
  const all: number[] = [];
  for (let answer = 0; answer < answers; answer++) all.push(...(await measure()));
  return all;
}

export const wordsAppear: Benchmark = {
  id: 'B16',
  title: 'words appear at once',
  async run(context: BenchmarkContext): Promise<BenchmarkOutcome> {
    const answers = context.quick ? 2 : 10;
    const chunks = context.quick ? 10 : 40;
    await measureSidebarWords(5, gapMs); // warm-up: jsdom, the sidebar's code, the engine
    const sidebarReceived: number[] = [];
    const sidebarDom: number[] = [];
    const sidebarPosted: number[] = [];
    // Each chunk's wait for its frame once in the webview (painted − received): uniform over 0-16.7 ms
    // whatever the sidebar does when frames start on time (p95 ~15.9, the floor under the painted figure's);
    // longer when a busy thread starts a frame late.
    const frameWait: number[] = [];
    let nextFrame = 0;
    const sidebar = await repeat(answers, async () => {
      const latencies = await measureSidebarWords(chunks, gapMs);
      sidebarReceived.push(...latencies.received);
      sidebarDom.push(...latencies.dom);
      sidebarPosted.push(...latencies.posted);
      frameWait.push(...latencies.painted.map((painted, index) => painted - latencies.received[index]));
      nextFrame += latencies.nextFrame;
      return latencies.painted;
    });
    const terminal = await repeat(answers, () => measureCliWords('tty', chunks, gapMs));
    const json = await repeat(answers, () => measureCliWords('json', chunks, gapMs));
    const samples = answers * chunks;
    const describe = (values: number[]) => `p50 ${percentile(values, 0.5).toFixed(1)} / p95 ${percentile(values, 0.95).toFixed(1)} ms`;
    const nextFrameShare = `${((100 * nextFrame) / samples).toFixed(1)} %`;
    context.log(
      `B16: sidebar painted ${describe(sidebar)} (posted by the host ${describe(sidebarPosted)}, in the webview ${describe(sidebarReceived)}, in the DOM ${describe(sidebarDom)}, ${nextFrameShare} in the next frame); CLI terminal ${describe(terminal)}; CLI JSON ${describe(json)} (${samples} chunks each)`,
    );
    return {
      measurements: [
        // The target is on the DOM (chunk → sidebar DOM, p95 ≤ 17 ms: in the DOM before the next frame
        // paints). The painted frame is shown beside it: its p95 cannot go under the frame wait's 15.9 ms.
        figure(
          `chunk → sidebar DOM (${samples} chunks, ${gapMs} ms apart)`,
          sidebarDom,
          context.quick,
          `target on p95; ${nextFrameShare} painted in the first frame after reaching the webview`,
          sidebarTargetMs,
        ),
        figure(`chunk → the webview's message event`, sidebarReceived, true, 'host and channel; no target'),
        figure(
          'chunk → sidebar painted: the start of the first 60 Hz frame showing it',
          sidebar,
          true,
          'what the eye sees; its p95 has the frame wait (15.9) under it; no target',
        ),
        figure(
          `the wait for the frame alone (painted − in the webview)`,
          frameWait,
          true,
          '0-16.7 ms when frames start on time (p95 15.9); more when they start late; no target',
        ),
        figure('chunk → CLI terminal output (TTY: the live line under its task)', terminal, context.quick),
        figure('chunk → CLI --json output (text-delta events)', json, context.quick),
      ],
      details: {
        answers,
        chunksPerAnswer: chunks,
        gapMs,
        sidebarPaintedMs: sidebar,
        sidebarDomMs: sidebarDom,
        sidebarPostedMs: sidebarPosted,
        sidebarFrameWaitMs: frameWait,
        sidebarReceivedMs: sidebarReceived,
        sidebarNextFrameShare: nextFrame / samples,
        terminalMs: terminal,
        jsonMs: json,
      },
    };
  },
};
