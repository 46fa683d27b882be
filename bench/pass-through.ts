// What `holdwatch run` costs a command that writes a lot: the same output read by this process from
// the command directly, through `cat` (a pipe stage that only copies), and through `holdwatch run`.
// Shapes the review found slow (reliability.md D3): no newline at all, which was quadratic, and
// nothing but newlines, a line each; and ordinary 80-column lines. Linear means the 80 MB row costs
// about four times the 20 MB one.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatTextTable } from './text-table.js';

const CLI = fileURLToPath(new URL('../../bin/holdwatch.js', import.meta.url));

const SHAPES = {
  'no newline': 'x',
  'blank lines': '\n',
  '80-column lines': 'x'.repeat(79) + '\n',
} as const;

/** A node one-liner writing `megabytes` of `unit` repeated, honouring backpressure. */
function writer(unit: string, megabytes: number): string[] {
  const script = `const u=${JSON.stringify(unit)};const c=Buffer.from(u.repeat(Math.ceil((1<<20)/u.length))).subarray(0,1<<20);let n=${megabytes};(function go(){while(n>0){n--;if(!process.stdout.write(c))return process.stdout.once('drain',go)}})()`;
  return [process.execPath, '-e', script];
}

/** Seconds until `argv` exits, its stdout read and counted here; the byte count must be whole. */
async function timed(argv: string[], expectedBytes: number, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const started = process.hrtime.bigint();
  const child = spawn(argv[0]!, argv.slice(1), { stdio: ['ignore', 'pipe', 'ignore'], env });
  let bytes = 0;
  child.stdout.on('data', (d: Buffer) => (bytes += d.length));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  if (code !== 0 || bytes !== expectedBytes) throw new Error(`${argv.join(' ').slice(0, 80)}: exit ${code}, ${bytes} of ${expectedBytes} bytes`);
  return Number(process.hrtime.bigint() - started) / 1e9;
}

export async function measurePassThrough(sizes = [20, 40, 80]): Promise<string> {
  const watched = mkdtempSync(join(tmpdir(), 'hw-bench-pass-'));
  const data = mkdtempSync(join(tmpdir(), 'hw-bench-pass-data-'));
  const rows: string[][] = [];
  try {
    // What `run` costs with no output at all (start-up, the final scan, the record): the rows above it.
    const shapes: [string, string, number[]][] = [['nothing', 'x', [0]], ...Object.entries(SHAPES).map(([s, u]): [string, string, number[]] => [s, u, sizes])];
    for (const [shape, unit, shapeSizes] of shapes)
      for (const mb of shapeSizes) {
        const command = writer(unit, mb);
        const bytes = mb << 20;
        const direct = await timed(command, bytes);
        const cat = await timed(['sh', '-c', `"$0" "$@" | cat`, ...command], bytes);
        const run = await timed([process.execPath, CLI, 'run', '--watch', watched, '--', ...command], bytes, { ...process.env, HOLDWATCH_DATA_DIR: data });
        rows.push([shape, `${mb} MB`, direct.toFixed(2), cat.toFixed(2), run.toFixed(2), (run / cat).toFixed(2) + 'x']);
      }
  } finally {
    rmSync(watched, { recursive: true, force: true });
    rmSync(data, { recursive: true, force: true });
  }
  const columns = [
    { header: 'output' },
    { header: 'size', align: 'right' as const },
    { header: 'direct s', align: 'right' as const },
    { header: '| cat s', align: 'right' as const },
    { header: 'holdwatch run s', align: 'right' as const },
    { header: 'run / cat', align: 'right' as const },
  ];
  return formatTextTable(columns, rows);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log('pass-through: the same output read directly, through cat, and through holdwatch run');
  console.log(await measurePassThrough());
}
