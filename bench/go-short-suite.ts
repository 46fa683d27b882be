// A Go module of short tests for the run benches: each writes and deletes a file in BENCH_WATCHED,
// with `extra` Go statements (using `p`, the file's path) between the two.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

export function writeGoShortSuite(root: string, tests: number, extra = ''): void {
  writeFileSync(join(root, 'go.mod'), 'module short\n\ngo 1.19\n');
  const test = (i: number) =>
    `func TestShort${i}(t *testing.T) {\n\tp := filepath.Join(os.Getenv("BENCH_WATCHED"), "f${i}")\n\tif err := os.WriteFile(p, []byte("x"), 0o644); err != nil {\n\t\tt.Fatal(err)\n\t}\n${extra}\tos.Remove(p)\n}\n`;
  const body = Array.from({ length: tests }, (_, i) => test(i)).join('\n');
  writeFileSync(join(root, 'short_test.go'), `package short\n\nimport (\n\t"os"\n\t"path/filepath"\n\t"testing"\n)\n\n${body}`);
}
