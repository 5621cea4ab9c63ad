/**
 * Child-process modes of the benchmark bundle (`node bench.cjs --probe <name> …`), for what needs a process
 * of its own: the mock provider under load (B2), loading the extension bundle cold (B5).
 */
import { serveMockProvider } from './mock-server-process.js';

export async function runProbe(argv: string[]): Promise<number> {
  const [name] = argv;
  if (name === 'mock-server') return serveMockProvider();
  console.error(`unknown probe: ${argv.join(' ')}`);
  return 2;
}
