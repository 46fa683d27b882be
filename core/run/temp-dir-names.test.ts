import { describe, expect, it } from 'vitest';
import { goTempDirPattern, testOfGoTempDir } from './temp-dir-names.js';

describe("Go's t.TempDir() names", () => {
  it('drops what testing.go drops from the test name', () => {
    expect(goTempDirPattern('TestFileConsole/log/"string",1,2')).toBe('TestFileConsolelogstring,1,2');
    expect(goTempDirPattern('TestX/a*b?c[d]:e')).toBe('TestXabcde');
    expect(goTempDirPattern('TestÜber/größe')).toBe('TestÜbergröße');
  });

  it('finds the test, the longest of parent and subtests, by -json or -v names', () => {
    const names = ['example.com/k6.TestFileConsole', 'example.com/k6.TestFileConsole/log', 'example.com/k6.TestFileConsole/log/"string"'];
    expect(testOfGoTempDir('/tmp/TestFileConsolelogstring2837465/001/log.txt', names)).toBe('example.com/k6.TestFileConsole/log/"string"');
    expect(testOfGoTempDir('/tmp/TestFileConsolelog99/002/x', names)).toBe('example.com/k6.TestFileConsole/log');
    expect(testOfGoTempDir('/tmp/TestFileConsolelog99/002/x', ['TestFileConsole', 'TestFileConsole/log'])).toBe('TestFileConsole/log');
    expect(testOfGoTempDir('C:\\Users\\RUNNER~1\\AppData\\Local\\Temp\\TestServer2537943436\\001\\readme.md', ['pkgsite.TestServer'])).toBe(
      'pkgsite.TestServer',
    );
  });

  it('is not fooled by a dir that merely starts like a test', () => {
    expect(testOfGoTempDir('/tmp/TestFileConsoleBackup/001/x', ['TestFileConsole'])).toBeNull(); // no random digits
    expect(testOfGoTempDir('/tmp/TestFileConsole123/x', ['TestFileConsole'])).toBeNull(); // no NNN below
    expect(testOfGoTempDir('/tmp/test_leaks0/leaked.txt', ['t.py::test_leaks'])).toBeNull();
  });
});
