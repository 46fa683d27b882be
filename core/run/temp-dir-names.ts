// Tests that name their temp dirs: a file under one was made by that test, whatever the clock says.
// Go's t.TempDir() is `<TMPDIR>/<the test's name, unusual characters dropped><random digits>/<NNN>`
// (testing.go: os.MkdirTemp("", pattern), then 001, 002... per call), removed by the test's cleanup:
// the very delete that fails on Windows ("TempDir RemoveAll cleanup").
import { POSIX_STYLE, WINDOWS_STYLE, type PathStyle } from '../paths.js';

/** testing.go's mapper: ASCII letters, digits and `!#$%&()+,-.=@^_{}~ ` stay; other ASCII goes; other letters and numbers stay. */
export function goTempDirPattern(testName: string): string {
  let out = '';
  for (const ch of testName) {
    const code = ch.codePointAt(0)!;
    if (code < 0x80) {
      if (/[0-9A-Za-z]/.test(ch) || '!#$%&()+,-.=@^_{}~ '.includes(ch)) out += ch;
    } else if (/[\p{L}\p{N}]/u.test(ch)) out += ch;
  }
  return out;
}

/** The Go test part of a timeline name: `example.com/pkg.TestX/sub` (go test -json) or `TestX/sub` (-v). */
function goTestPart(name: string): string | null {
  const m = /^(?:.*?\.)?((?:Test|Benchmark|Fuzz|Example)[^/]*(?:\/.*)?)$/.exec(name);
  return m ? m[1]! : null;
}

/**
 * The test whose t.TempDir() holds `path`, among the run's test names; null when the path lies in no
 * test-named temp dir. Subtests share their parent's prefix: the longest match wins.
 */
export function testOfGoTempDir(
  path: string,
  testNames: readonly string[],
  style: PathStyle = /^[A-Za-z]:[\\/]/.test(path) ? WINDOWS_STYLE : POSIX_STYLE,
): string | null {
  const parts = path.split(style.sep === '\\' ? /[\\/]/ : '/');
  let best: { name: string; length: number } | null = null;
  for (let i = 0; i + 1 < parts.length; i++) {
    if (!/^\d{3,}$/.test(parts[i + 1]!)) continue; // the NNN under the test's dir
    const dir = parts[i]!;
    for (const name of testNames) {
      const test = goTestPart(name);
      if (test === null) continue;
      const pattern = goTempDirPattern(test);
      const rest = dir.slice(pattern.length);
      const same = style.caseInsensitive ? dir.toLowerCase().startsWith(pattern.toLowerCase()) : dir.startsWith(pattern);
      if (pattern.length > 0 && same && /^\d+$/.test(rest) && (!best || pattern.length > best.length)) best = { name, length: pattern.length };
    }
  }
  return best?.name ?? null;
}
