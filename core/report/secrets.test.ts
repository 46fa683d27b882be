import { describe, expect, it } from 'vitest';
import { redactSecretArgs, redactSecrets } from './secrets.js';

describe('redactSecrets', () => {
  it('masks the argv secrets the security review found kept in --redact reports', () => {
    expect(redactSecrets('python3 app.py --password=hunter2 --token=ghp_ARGVSECRET -v')).toBe('python3 app.py --password=<redacted> --token=<redacted> -v');
  });

  it('masks an option and its value as the next word, quoted or not', () => {
    expect(redactSecrets(`deploy --api-key abc123 --client-secret 'two words' --x 1`)).toBe('deploy --api-key <redacted> --client-secret <redacted> --x 1');
  });

  it('masks environment assignments by name, and URL passwords, and tokens by their shape', () => {
    expect(redactSecrets('env GITHUB_TOKEN=ghs_x DB_PASSWORD="p w" HOME=/h sh -c "AWS_SECRET_ACCESS_KEY=abc make"')).toBe(
      'env GITHUB_TOKEN=<redacted> DB_PASSWORD=<redacted> HOME=/h sh -c "AWS_SECRET_ACCESS_KEY=<redacted> make"',
    );
    expect(redactSecrets('git clone https://bot:s3cr3t@example.com/r.git')).toBe('git clone https://bot:<redacted>@example.com/r.git');
    expect(redactSecrets('curl -H x ghp_0123456789abcdefghijABCD and AKIAABCDEFGHIJKLMNOP')).toBe('curl -H x <redacted> and <redacted>');
  });

  it('leaves alone flags without values, paths and the working dir; a value whose option merely contains a secret word is masked, the safe error', () => {
    const plain = 'pytest --no-auth tests/test_x.py --passWithNoTests PWD=/home/a --tokenizer-dir=x';
    expect(redactSecrets(plain)).toBe('pytest --no-auth tests/test_x.py --passWithNoTests PWD=/home/a --tokenizer-dir=<redacted>');
  });
});

describe('redactSecretArgs', () => {
  it('masks the word after a bare secret option in an argv, and secrets inside words', () => {
    expect(redactSecretArgs(['node', 'app.js', '--token', 'abc', '--password=x', '--verbose', 'tests/'])).toEqual([
      'node',
      'app.js',
      '--token',
      '<redacted>',
      '--password=<redacted>',
      '--verbose',
      'tests/',
    ]);
  });
});
