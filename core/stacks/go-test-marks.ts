// What a Go test binary writes on its stdout when run verbose (go test -v, and -json, whose test2json
// reads the same lines): each test's `=== RUN`, `=== PAUSE`/`=== CONT` around t.Parallel, and its
// `--- PASS/FAIL/SKIP` after its cleanups ran. One write may carry several lines (a parent's end is
// written with its subtests' ends). Go 1.20+ puts a ^V before each line under -json: it is dropped.

export interface GoTestMark {
  mark: 'run' | 'pause' | 'cont' | 'end';
  test: string;
}

const MARK = /^(?:=== (RUN|PAUSE|CONT) +(\S+)|--- (?:PASS|FAIL|SKIP): (\S+) \()/;

export function goTestMarks(written: string): GoTestMark[] {
  const marks: GoTestMark[] = [];
  for (const raw of written.split('\n')) {
    const m = MARK.exec((raw.startsWith('\u0016') ? raw.slice(1) : raw).trimStart());
    if (!m) continue;
    if (m[3] !== undefined) marks.push({ mark: 'end', test: m[3] });
    else marks.push({ mark: m[1]!.toLowerCase() as GoTestMark['mark'], test: m[2]! });
  }
  return marks;
}
